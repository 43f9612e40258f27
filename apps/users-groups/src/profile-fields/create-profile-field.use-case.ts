import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { requireAdministrator } from '../users/user-admin-events';
import { AnnounceProfileFields, isUniqueViolation } from './announce-profile-fields';
import { DEFAULT_EXTERNAL_ACCOUNTS, checkField, checkFieldDataShape, isDefaultExternal, keepsFieldData, labelTaken, summaryLimitReached } from './profile-field-rules';

type Params = DecodedParams<typeof UsersGroups.createProfileFieldParams>;

/**
 * POST /realm/profile_fields (create_realm_custom_profile_field): administrators; at most two
 * fields in profile summaries; Zulip's checks in its order; a GitHub or Twitter account field
 * takes Zulip's name for it; the label is the organization's only one; everyone is told.
 */
@Injectable()
export class CreateProfileField {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly announce: AnnounceProfileFields,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ id: number }> {
    requireAdministrator(user);
    const fieldData = params.field_data ?? {};
    checkFieldDataShape(fieldData);
    if (params.display_in_profile_summary && (await this.fields.countInSummary(realm.id)) >= UsersGroups.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) {
      throw summaryLimitReached();
    }
    const name = params.name.trim();
    checkField({ name, hint: params.hint, fieldType: params.field_type, fieldData, displayInProfileSummary: params.display_in_profile_summary });
    const common = {
      fieldType: params.field_type,
      displayInProfileSummary: params.display_in_profile_summary,
      required: params.required,
      editableByUser: params.editable_by_user,
    };
    const subtype = fieldData.subtype as string;
    const field = isDefaultExternal(params.field_type, fieldData)
      ? { ...common, name: DEFAULT_EXTERNAL_ACCOUNTS[subtype].name, hint: DEFAULT_EXTERNAL_ACCOUNTS[subtype].hint, fieldData: JSON.stringify({ subtype }) }
      : { ...common, name, hint: params.hint, fieldData: keepsFieldData(params.field_type) ? JSON.stringify(fieldData) : '' };
    return this.announce.change(
      realm.id,
      async (tx) => {
        const row = await this.fields.create(realm.id, field, tx).catch((error: unknown) => {
          throw isUniqueViolation(error) ? labelTaken() : error;
        });
        return { value: { id: row.id } };
      },
      requestId,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { CUSTOM_PROFILE_FIELD_TYPES as TYPES } from '../register/organization-state';
import { realmUserUpdate, requireAdministrator } from '../users/user-admin-events';
import { AnnounceProfileFields, isUniqueViolation } from './announce-profile-fields';
import { checkField, checkFieldDataShape, fieldNotFound, isDefaultExternal, keepsFieldData, labelTaken, storedFieldData, summaryLimitReached } from './profile-field-rules';

type Params = DecodedParams<typeof UsersGroups.updateProfileFieldParams>;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * PATCH /realm/profile_fields/{field_id} (update_realm_custom_profile_field): administrators;
 * the field as it would become is checked as a new one; a default external account changes
 * nothing but where it is shown; options removed from a list clear the users' values that
 * chose them (each user's change announced); everyone is told of the fields.
 */
@Injectable()
export class UpdateProfileField {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly announce: AnnounceProfileFields,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(user);
    if (params.field_data !== undefined) checkFieldDataShape(params.field_data);
    const field = isStoredId(params.field_id) ? await this.fields.find(realm.id, params.field_id) : null;
    if (!field) throw fieldNotFound(params.field_id);
    if (params.display_in_profile_summary && (await this.fields.countInSummary(realm.id, field.id)) >= UsersGroups.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) {
      throw summaryLimitReached();
    }
    const name = params.name?.trim();
    const stored = storedFieldData(field);
    if (field.fieldType === TYPES.EXTERNAL_ACCOUNT.id && isDefaultExternal(field.fieldType, stored)) {
      const onlySummary =
        (name === undefined || name === field.name) &&
        (params.hint === undefined || params.hint === field.hint) &&
        (params.field_data === undefined || sameJson(params.field_data, stored));
      if (!onlySummary) throw badRequest('Default custom field cannot be updated.');
    }
    checkField({
      name: name ?? field.name,
      hint: params.hint ?? field.hint,
      fieldType: field.fieldType,
      fieldData: params.field_data ?? stored,
      displayInProfileSummary: params.display_in_profile_summary ?? field.displayInProfileSummary,
    });

    let fieldData: string | undefined;
    let removedOptions: string[] = [];
    if (keepsFieldData(field.fieldType) && (params.field_data !== undefined || field.fieldData === '')) {
      fieldData = JSON.stringify(params.field_data ?? {});
      if (params.field_data !== undefined && field.fieldType === TYPES.SELECT.id) {
        removedOptions = Object.keys(stored).filter((key) => !(key in params.field_data!));
      }
    }
    const change = {
      ...(name !== undefined ? { name } : {}),
      ...(params.hint !== undefined ? { hint: params.hint } : {}),
      ...(params.required !== undefined ? { required: params.required } : {}),
      ...(params.editable_by_user !== undefined ? { editableByUser: params.editable_by_user } : {}),
      ...(params.display_in_profile_summary !== undefined ? { displayInProfileSummary: params.display_in_profile_summary } : {}),
      ...(fieldData !== undefined ? { fieldData } : {}),
    };
    return this.announce.change(
      realm.id,
      async (tx, audience) => {
        const cleared = await this.fields.update(field.id, change, removedOptions, tx).catch((error: unknown) => {
          throw isUniqueViolation(error) ? labelTaken() : error;
        });
        // Each user whose chosen option went away is told their value is gone, before the list.
        const before = cleared.map(({ userId }) => realmUserUpdate(realm.id, audience, userId, { custom_profile_field: { id: field.id, value: null } }));
        return { value: {}, before };
      },
      requestId,
    );
  }
}

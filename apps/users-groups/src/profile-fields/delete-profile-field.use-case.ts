import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { requireAdministrator } from '../users/user-admin-events';
import { AnnounceProfileFields } from './announce-profile-fields';
import { fieldNotFound } from './profile-field-rules';

type Params = DecodedParams<typeof UsersGroups.deleteProfileFieldParams>;

/** DELETE /realm/profile_fields/{field_id} (do_remove_realm_custom_profile_field): administrators; users' values go with it; everyone is told. */
@Injectable()
export class DeleteProfileField {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly announce: AnnounceProfileFields,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(user);
    if (!isStoredId(params.field_id)) throw fieldNotFound(params.field_id);
    return this.announce.change(
      realm.id,
      async (tx) => {
        if (!(await this.fields.delete(realm.id, params.field_id, tx))) throw fieldNotFound(params.field_id);
        return { value: {} };
      },
      requestId,
    );
  }
}

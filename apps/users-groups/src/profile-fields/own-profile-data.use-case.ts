import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository, type ProfileFieldRow } from '../data/profile-fields.repository';
import { UsersRepository } from '../data/users.repository';
import { UserAccess } from '../users/user-access';
import { RENDERED_TYPES, applyProfileData, checkValue, renderProfileText, type ProfileWrite } from '../users/profile-data';
import { realmUserUpdate } from '../users/user-admin-events';
import { fieldNotFound } from './profile-field-rules';

type UpdateParams = DecodedParams<typeof UsersGroups.updateOwnProfileDataParams>;
type RemoveParams = DecodedParams<typeof UsersGroups.removeOwnProfileDataParams>;

const notEditable = () => badRequest('You are not allowed to change this field. Contact an administrator to update it.');
const noBots = () => badRequest('This endpoint does not accept bot requests.');

/**
 * PATCH and DELETE /users/me/profile_data (update_user_custom_profile_data,
 * remove_user_custom_profile_data): people only; each field must be the organization's and,
 * unless the caller is an administrator, editable by users; values are checked by the field's
 * type (an empty text is stored, as Zulip stores it). All or nothing; each changed value is
 * announced as a `realm_user` update.
 */
@Injectable()
export class OwnProfileData {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
  ) {}

  async update({ realm, user, params, requestId }: UserCommand<UpdateParams>): Promise<Record<string, never>> {
    if (user.isBot) throw noBots();
    const fields = await this.editable(realm.id, user.role, params.data.map((entry) => entry.id));
    const writes: ProfileWrite[] = [];
    for (const entry of params.data) {
      const field = fields.get(entry.id)!;
      const value = await checkValue(this.users, realm.id, field, entry.value);
      writes.push({ fieldId: field.id, value, renderedValue: RENDERED_TYPES.has(field.fieldType) ? renderProfileText(value) : null });
    }
    await this.write(realm.id, user.id, writes, requestId);
    return {};
  }

  async remove({ realm, user, params, requestId }: UserCommand<RemoveParams>): Promise<Record<string, never>> {
    if (user.isBot) throw noBots();
    await this.editable(realm.id, user.role, params.data);
    await this.write(realm.id, user.id, params.data.map((fieldId) => ({ fieldId, value: null, renderedValue: null })), requestId);
    return {};
  }

  /** The named fields, in the order Zulip checks them: each found, then each editable by the caller. */
  private async editable(realmId: number, role: number, ids: number[]): Promise<Map<number, ProfileFieldRow>> {
    const inRange = ids.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
    const fields = new Map((await this.fields.fieldsOfRealm(realmId, [...new Set(inRange)])).map((field) => [field.id, field]));
    for (const id of ids) {
      const field = fields.get(id);
      if (!field) throw fieldNotFound(id);
      if (role > Role.ADMINISTRATOR && !field.editableByUser) throw notEditable();
    }
    return fields;
  }

  private async write(realmId: number, userId: number, writes: ProfileWrite[], requestId: string): Promise<void> {
    await this.outbox.run(async (tx) => {
      const changes = await applyProfileData(this.fields, userId, writes, tx);
      if (changes.length === 0) return { value: undefined, events: [] };
      const audience = (await this.access.audienceOf(realmId, userId, tx)).map((viewer) => viewer.id);
      return { value: undefined, events: changes.map((change) => realmUserUpdate(realmId, audience, userId, { custom_profile_field: change })) };
    }, requestId);
  }
}

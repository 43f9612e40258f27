import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { requireAdministrator } from '../users/user-admin-events';
import { AnnounceProfileFields } from './announce-profile-fields';

type Params = DecodedParams<typeof UsersGroups.reorderProfileFieldsParams>;

/** PATCH /realm/profile_fields (try_reorder_realm_custom_profile_fields): administrators; every field must be in `order`. */
@Injectable()
export class ReorderProfileFields {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly announce: AnnounceProfileFields,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(user);
    const position = new Map(params.order.map((id, index) => [id, index]));
    const existing = await this.fields.ofRealm(realm.id);
    if (existing.some((field) => !position.has(field.id))) throw badRequest('Invalid order mapping.');
    return this.announce.change(
      realm.id,
      async (tx) => {
        await this.fields.reorder(realm.id, new Map(existing.map((field) => [field.id, position.get(field.id)!])), tx);
        return { value: {} };
      },
      requestId,
    );
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import type { z } from 'zod';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UserMessagesReadonlyRepository } from '../data/user-messages.readonly.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { UserLookup } from './user-lookup';
import { profileDataOf, toUserRecord } from './user-record';

type OwnUser = z.output<typeof UsersGroups.ownUserSchema>;

/**
 * GET /users/me (zerver/views/users.py get_profile_backend): the caller's record without
 * client_gravatar, with their custom profile fields and the deprecated max_message_id.
 */
@Injectable()
export class GetOwnUser {
  constructor(
    private readonly profileFields: ProfileFieldsRepository,
    private readonly userMessages: UserMessagesReadonlyRepository,
    private readonly lookup: UserLookup,
    private readonly realms: RealmDirectory,
  ) {}

  async execute({ realm, user }: UserCommand<Record<string, never>>): Promise<OwnUser> {
    const caller = user;
    const row = await this.lookup.byId(realm, caller.id, { allowDeactivated: false, allowBots: true });
    const [profileData, maxMessageId] = await Promise.all([
      this.profileFields.valuesOfUsers([row.id]).then(profileDataOf),
      this.userMessages.maxMessageIdOf(row.id),
    ]);
    const record = toUserRecord(row, {
      viewer: caller,
      realmHost: this.realms.hostnameOf(realm.subdomain),
      clientGravatar: false,
      profileData,
    });
    // Zulip's description of this response has neither bot key.
    const { bot_type: _botType, bot_owner_id: _botOwnerId, ...own } = record;
    return {
      ...own,
      avatar_url: record.avatar_url ?? '',
      delivery_email: row.deliveryEmail,
      profile_data: profileData.get(row.id) ?? {},
      max_message_id: maxMessageId ?? -1,
    };
  }
}

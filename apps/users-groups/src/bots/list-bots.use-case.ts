import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { BotRecords } from './bot-records';

/**
 * GET /bots (zerver/views/users.py get_bots_backend): the caller's own active bots, oldest first,
 * with their keys. Administrators too get only their own here (POST /register's `realm_bots`
 * lists every bot for them).
 */
@Injectable()
export class ListBots {
  constructor(private readonly records: BotRecords) {}

  async execute({ realm, user }: UserCommand<Record<string, never>>): Promise<{ bots: UsersGroups.OwnedBot[] }> {
    checkMemberOrAdmin(user);
    const bots = await this.records.of(realm.id, { ownerId: user.id, activeOnly: true });
    return {
      bots: bots.map((bot) => ({
        username: bot.email,
        full_name: bot.full_name,
        api_key: bot.api_key,
        avatar_url: bot.avatar_url,
        default_sending_stream: bot.default_sending_stream,
        default_events_register_stream: bot.default_events_register_stream,
        default_all_public_streams: bot.default_all_public_streams,
      })),
    };
  }
}

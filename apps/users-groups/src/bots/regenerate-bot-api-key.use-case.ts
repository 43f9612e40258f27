import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { RegenerateApiKey } from '../auth/regenerate-api-key.use-case';
import { BotsRepository } from '../data/bots.repository';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { realmBotEvent } from './bot-records';
import { BotAccess } from './bot-rules';

type Params = DecodedParams<typeof UsersGroups.botIdParams>;

/**
 * POST /bots/{bot_id}/api_key/regenerate (zerver/views/users.py regenerate_bot_api_key): the
 * key rotation of POST /users/me/api_key/regenerate (the old key refused at once), for a bot the
 * caller administers, and `realm_bot` update with the new key to the bot's administrators.
 */
@Injectable()
export class RegenerateBotApiKey {
  constructor(
    private readonly access: BotAccess,
    private readonly bots: BotsRepository,
    private readonly keys: RegenerateApiKey,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ api_key: string }> {
    checkMemberOrAdmin(user);
    const bot = await this.access.bot(realm, user, params.bot_id);
    // Who administers the bot only decides the event's audience: read before the transaction.
    const [details] = await this.bots.withDetails(realm.id, { ids: [bot.id] });
    const administrators = await this.access.administrators(realm.id, details);
    const key = await this.keys.rotate(realm.id, bot.id, requestId, (newKey) => [
      realmBotEvent(realm.id, administrators, 'update', { user_id: bot.id, api_key: newKey }),
    ]);
    return { api_key: key };
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { badRequest } from '@teamchat/zulip';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { DeactivateUser } from '../users/deactivate-user.use-case';
import { BotAccess } from './bot-rules';

type Params = DecodedParams<typeof UsersGroups.botIdParams>;

/**
 * DELETE /bots/{bot_id} (zerver/views/users.py deactivate_bot_backend): the one deactivation
 * (DeactivateUser.deactivate: `realm_user` update to everyone, `realm_bot` update to the bot's
 * administrators, its key refused at once), for a bot the caller administers.
 */
@Injectable()
export class DeactivateBot {
  constructor(
    private readonly access: BotAccess,
    private readonly deactivation: DeactivateUser,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    checkMemberOrAdmin(user);
    const bot = await this.access.bot(realm, user, params.bot_id);
    // Zulip's do_deactivate_user does nothing for an account already deactivated.
    if (!bot.isActive) return {};
    // A bot has no human owner's duties: the owner rule never refuses it.
    await this.deactivation.deactivate(realm.id, bot.id, { lastOwner: () => badRequest('Cannot deactivate the only organization owner') }, requestId);
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand, type Presence } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { CommandClient } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { StatusRules } from './status-rules';
import { UserStatusRepository } from '../data/user-status.repository';

type Params = DecodedParams<typeof Presence.updateOwnStatusParams>;

/**
 * POST /users/me/status (zerver/views/presence.py update_user_status_backend): only what is
 * passed changes. The deprecated `away` sets presence_enabled = !away through users-groups,
 * which owns settings and announces that change itself; the `user_status` event echoes it.
 */
@Injectable()
export class UpdateOwnStatus {
  constructor(
    private readonly rules: StatusRules,
    private readonly statuses: UserStatusRepository,
    private readonly commands: CommandClient,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
    const change = await this.rules.check(realm.id, params);

    // Everything is checked by now. The setting goes first: it is the part that can time out.
    if (change.away !== undefined) {
      await this.commands.call(UsersGroups.setPresenceEnabled, { realmId: realm.id, userId: caller.id, enabled: !change.away, requestId });
    }
    const event = await this.rules.changedEvent(realm.id, caller.id, change);
    return this.outbox.runCold(async (tx) => {
      await this.statuses.save(realm.id, caller.id, change, tx);
      return { value: {}, events: [event] };
    }, requestId);
  }
}

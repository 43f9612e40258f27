import { Injectable } from '@nestjs/common';
import type { UserCommand, Presence } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { StatusRules } from './status-rules';
import { UserStatusRepository } from '../data/user-status.repository';

type Params = DecodedParams<typeof Presence.updateUserStatusParams>;

/**
 * POST /users/{user_id}/status (zerver/views/presence.py update_user_status_admin): an
 * administrator sets another user's status, with the same rules as one's own but no `away`.
 * The target is resolved before the caller's permission is checked, as in Zulip.
 */
@Injectable()
export class UpdateUserStatus {
  constructor(
    private readonly rules: StatusRules,
    private readonly statuses: UserStatusRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const { user_id: userId, ...fields } = params;
    const target = await this.rules.target(realm, user, userId, { forAdmin: true, requestId });
    const change = await this.rules.check(realm.id, fields);
    const event = await this.rules.changedEvent(realm.id, target.id, change);
    return this.outbox.runCold(async (tx) => {
      await this.statuses.save(realm.id, target.id, change, tx);
      return { value: {}, events: [event] };
    }, requestId);
  }
}

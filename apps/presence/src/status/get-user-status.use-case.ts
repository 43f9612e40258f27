import { Injectable } from '@nestjs/common';
import type { UserCommand, Presence } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { toStatusRecord } from './status-change';
import { StatusRules } from './status-rules';
import { UserStatusRepository } from '../data/user-status.repository';

type Params = DecodedParams<typeof Presence.getUserStatusParams>;

/** GET /users/{user_id}/status (zerver/views/presence.py get_status_backend). */
@Injectable()
export class GetUserStatus {
  constructor(
    private readonly rules: StatusRules,
    private readonly statuses: UserStatusRepository,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ status: Presence.UserStatusRecord }> {
    const target = await this.rules.target(realm, user, params.user_id, { forAdmin: false, requestId });
    return { status: toStatusRecord(await this.statuses.find(target.id), target.settings.presence_enabled) };
  }
}

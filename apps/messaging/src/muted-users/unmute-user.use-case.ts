import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MutedUsersRepository } from '../data/muted-users.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { mutedUsersEvent, noSuchUser } from './muted-user-rules';

/**
 * DELETE /users/me/muted_users/{muted_user_id} (zerver/views/muted_users.py unmute_user):
 * the user must exist in the organization ("No such user") and be muted ("User is not muted");
 * the caller's clients get `muted_users` with the whole list. Messages marked read stay read.
 */
@Injectable()
export class UnmuteUser {
  constructor(
    private readonly users: UsersReadonlyRepository,
    private readonly muted: MutedUsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.mutedUserPathParams>>): Promise<Record<string, never>> {
    const mutedUserId = params.muted_user_id;
    if (!(await this.users.anyById(realm.id, mutedUserId))) throw noSuchUser();
    return this.outbox.run(async (tx) => {
      if (!(await this.muted.unmute(user.id, mutedUserId, tx))) throw badRequest('User is not muted');
      return { value: {}, events: [mutedUsersEvent(realm.id, user.id, await this.muted.of(user.id, tx))] };
    }, requestId);
  }
}

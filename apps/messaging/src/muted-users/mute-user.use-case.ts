import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { MutedUsersRepository } from '../data/muted-users.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { messagesReadEvent } from '../topics/topic-events';
import { mutedUsersEvent, noSuchUser } from './muted-user-rules';

/**
 * POST /users/me/muted_users/{muted_user_id} (zerver/views/muted_users.py mute_user,
 * zerver/actions/muted_users.py do_mute_user): any user of the organization, bots and
 * deactivated users included, but not oneself. In one transaction the mute is stored and every
 * unread message from the muted user is marked read for the caller, with the events that tell the
 * caller's clients (outbox): `update_message_flags` (read) for those and `muted_users` with the whole list.
 */
@Injectable()
export class MuteUser {
  constructor(
    private readonly users: UsersReadonlyRepository,
    private readonly muted: MutedUsersRepository,
    private readonly flags: MessageFlagsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.mutedUserPathParams>>): Promise<Record<string, never>> {
    const mutedUserId = params.muted_user_id;
    if (mutedUserId === user.id) throw badRequest('Cannot mute self');
    if (!(await this.users.anyById(realm.id, mutedUserId))) throw noSuchUser();
    return this.outbox.run(async (tx) => {
      if (!(await this.muted.mute(user.id, mutedUserId, tx))) throw badRequest('User already muted');
      const read = (await this.flags.markSenderRead(user.id, mutedUserId, tx)).sort((a, b) => a - b);
      const mutes = await this.muted.of(user.id, tx);
      return { value: {}, events: [...(read.length > 0 ? [messagesReadEvent(realm.id, user.id, read)] : []), mutedUsersEvent(realm.id, user.id, mutes)] };
    }, requestId);
  }
}

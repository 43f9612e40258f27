import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { MessagesRepository } from '../data/messages.repository';
import { firstMessageChangedEvent } from '../topics/topic-events';
import { messagesDeletedEvent } from '../core/outgoing-events';
import { ActedMessages } from './acted-message';
import { ActionPermissions, pastLimit } from './action-permissions';

type Command = PayloadOf<typeof Messaging.deleteMessage>;

/**
 * DELETE /messages/{message_id} (zerver/views/message_edit.py delete_message_backend,
 * validate_can_delete_message): administrators and the can_delete_any_message groups (the
 * organization's, the channel's) always; the sender per can_delete_own_message_group and within
 * message_content_delete_limit_seconds. The channel's first_message_id moves on when it was the
 * one; read state and reactions go with the message's rows.
 */
@Injectable()
export class DeleteMessage {
  constructor(
    private readonly messageRows: MessagesRepository,
    private readonly messages: ActedMessages,
    private readonly permissions: ActionPermissions,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: Command): Promise<Record<string, never>> {
    const caller = user;
    const message = await this.messages.readable(realm, caller, params.message_id);
    const settings = await this.permissions.settings(realm.id);
    if (!(await this.permissions.holds(caller, settings.canDeleteAnyGroupId, message, 'can_delete_any_message_group'))) {
      if (message.senderId !== caller.id) throw badRequest("You don't have permission to delete this message");
      if (!(await this.permissions.holds(caller, settings.canDeleteOwnGroupId, message, 'can_delete_own_message_group'))) {
        throw badRequest("You don't have permission to delete this message");
      }
      if (pastLimit(message.dateSent, settings.deleteLimitSeconds)) throw badRequest('The time limit for deleting this message has passed');
    }

    const audience = (await this.messages.audience([message.id], message)).map((u) => u.id).sort((a, b) => a - b);
    return this.outbox.run(async (tx) => {
      const deleted = await this.messageRows.deleteOne(message.id, tx);
      if (!deleted) throw badRequest('Invalid message(s)'); // deleted meanwhile
      const events = [messagesDeletedEvent(realm.id, audience, { messageIds: [message.id], streamId: message.streamId, topic: message.topic })];
      if (deleted.moved && message.streamId !== null) {
        events.push(firstMessageChangedEvent(realm.id, audience, { id: message.streamId, name: message.channelName ?? '' }, deleted.firstMessageId));
      }
      return { value: {}, events };
    }, requestId);
  }
}

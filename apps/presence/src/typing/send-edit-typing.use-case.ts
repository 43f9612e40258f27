import { Injectable } from '@nestjs/common';
import { Messaging, type Presence, type UserCommand } from '@teamchat/contracts';
import { CommandClient, EventBus } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';
import { MAX_CHANNEL_SIZE_FOR_TYPING, editTypingAudience, typingEvents } from './typing-event';

type Params = DecodedParams<typeof Presence.editTypingParams>;

/**
 * POST /messages/{message_id}/typing (zerver/views/typing.py send_message_edit_notification_backend,
 * zerver/actions/typing.py): messaging checks that the caller may edit the message and says
 * where it is; the caller's typing setting for that kind of conversation must be on; then a
 * `typing_edit_message` event goes to those who would see the edit (the channel's subscribers,
 * at most Zulip's channel size for typing, or the conversation's participants) who are active
 * and receive typing notifications, the caller included. Nothing is stored.
 */
@Injectable()
export class SendEditTyping {
  constructor(
    private readonly people: PeopleReadonlyRepository,
    private readonly commands: CommandClient,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const where = await this.commands.call(Messaging.editTypingAudience, { realmId: realm.id, userId: user.id, messageId: params.message_id });
    const sender = await this.people.byId(realm, user.id);
    if (!sender) throw new Error(`sender ${user.id} is not a user of organization ${realm.id}`);
    // Published straight to the event bus, not the outbox: nothing is stored, so there is no
    // commit to share, and a notification lost to a crash is simply not shown.
    const base = { type: 'typing_edit_message', op: params.op, sender_id: user.id, message_id: params.message_id };
    if (where.type === 'channel') {
      if (!sender.settings.send_stream_typing_notifications) throw badRequest('User has disabled typing notifications for channel messages');
      if (where.subscriberIds.length > MAX_CHANNEL_SIZE_FOR_TYPING) return {};
      const users = editTypingAudience((await this.people.byIds(realm, where.subscriberIds)).values());
      const event = { ...base, recipient: { type: 'channel', channel_id: where.channelId, topic: where.topic } };
      await this.events.publishAll(typingEvents(realm.id, users, event), requestId);
      return {};
    }
    if (!sender.settings.send_private_typing_notifications) throw badRequest('User has disabled typing notifications for direct messages');
    const users = editTypingAudience((await this.people.byIds(realm, where.userIds)).values());
    const event = { ...base, recipient: { type: 'direct', user_ids: users } };
    await this.events.publishAll(typingEvents(realm.id, users, event), requestId);
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, ResultOf } from '@teamchat/contracts';
import { MemberProfiles } from '../core/member-profiles';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { ActedMessages } from '../message-actions/acted-message';
import { SendMessage } from '../messages/send-message.use-case';
import { StoredSenders } from '../messages/stored-senders';
import { reminderText } from './reminder-text';

type Payload = PayloadOf<typeof Messaging.reminderContent>;

/**
 * Internal, for the scheduler's reminders (zerver/actions/reminders.py and
 * zerver/lib/reminders.py): the message must be one the owner can read now; the text names it
 * and quotes it, and is then checked and rendered as the owner's direct message to themselves
 * (Zulip's check_message with Addressee.for_user_profile), every rule of sending applying.
 */
@Injectable()
export class ReminderContent {
  constructor(
    private readonly senders: StoredSenders,
    private readonly messages: ActedMessages,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly profiles: MemberProfiles,
    private readonly send: SendMessage,
  ) {}

  async execute({ realmId, userId, messageId, note, requestId }: Payload): Promise<ResultOf<typeof Messaging.reminderContent>> {
    const { realm, user } = await this.senders.identity(realmId, userId);
    const row = await this.messages.readable(realm, user, messageId);
    const members = row.dmGroupId !== null ? ((await this.dmGroups.byIds([row.dmGroupId]))[0]?.memberIds ?? [row.senderId]) : [];
    const people = await this.profiles.of(realm.host, [row.senderId, ...members]);
    const text = reminderText(
      {
        id: row.id,
        senderId: row.senderId,
        senderName: people.get(row.senderId)?.fullName ?? '',
        content: row.content,
        channel: row.streamId !== null ? { id: row.streamId, name: row.channelName ?? '' } : null,
        topic: row.topic,
        participants: [...members].sort((a, b) => a - b).map((id) => ({ id, fullName: people.get(id)?.fullName ?? '' })),
      },
      user.id,
      realm.url,
      note,
    );
    const checked = await this.send.check({
      realm,
      user,
      requestId,
      client: 'Internal',
      params: { type: 'private', to: JSON.stringify([user.id]), content: text, topic: undefined, queue_id: undefined, local_id: undefined, read_by_sender: undefined },
    });
    return { content: checked.content, renderedContent: checked.renderedContent };
  }
}

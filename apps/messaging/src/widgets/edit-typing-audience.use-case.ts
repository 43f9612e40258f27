import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, ResultOf } from '@teamchat/contracts';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { ActedMessages } from '../message-actions/acted-message';
import { ActionPermissions, checkContentEditable } from '../message-actions/action-permissions';
import { StoredSenders } from '../messages/stored-senders';

type Payload = PayloadOf<typeof Messaging.editTypingAudience>;

/**
 * Internal, for presence's POST /messages/{message_id}/typing (zerver/views/typing.py
 * send_message_edit_notification_backend): the caller may edit the message's content now
 * (access_message, then validate_user_can_edit_message with no buffer); answers the channel and
 * topic with its active subscribers, or the direct conversation's participants.
 */
@Injectable()
export class EditTypingAudience {
  constructor(
    private readonly senders: StoredSenders,
    private readonly messages: ActedMessages,
    private readonly permissions: ActionPermissions,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
  ) {}

  async execute({ realmId, userId, messageId }: Payload): Promise<ResultOf<typeof Messaging.editTypingAudience>> {
    const { realm, user } = await this.senders.identity(realmId, userId);
    const message = await this.messages.readable(realm, user, messageId);
    checkContentEditable(await this.permissions.settings(realm.id), message, user.id, 0);
    if (message.streamId !== null) {
      return { type: 'channel', channelId: message.streamId, topic: message.topic, subscriberIds: await this.subscriptions.activeSubscriberIds(message.streamId) };
    }
    const [group] = await this.dmGroups.byIds([message.dmGroupId!]);
    return { type: 'direct', userIds: group?.memberIds ?? [user.id] };
  }
}

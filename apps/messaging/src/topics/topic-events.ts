import { Messaging } from '@teamchat/contracts';
import { outgoing, type OutgoingEvent } from '../core/outgoing-events';

const { MessagingEvents } = Messaging;

/** `update_message_flags` (read added) for the reader's own clients. */
export const messagesReadEvent = (realmId: number, userId: number, messages: number[]): OutgoingEvent =>
  outgoing(MessagingEvents.messageFlagsChanged, {
    realmId,
    users: [userId],
    event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all: false },
  });

/** `stream` update of `first_message_id`, when a channel's oldest message went. */
export const firstMessageChangedEvent = (
  realmId: number,
  users: number[],
  channel: { id: number; name: string },
  firstMessageId: number | null,
): OutgoingEvent =>
  outgoing(MessagingEvents.channelChanged, {
    realmId,
    users,
    event: {
      type: 'stream',
      op: 'update',
      stream_id: channel.id,
      name: channel.name,
      property: 'first_message_id',
      value: firstMessageId,
    },
  });

/** `user_topic` for one user whose visibility policy of a topic went back to inherit (0). */
export const visibilityResetEvent = (realmId: number, userId: number, streamId: number, topic: string, now: Date): OutgoingEvent =>
  userTopicChangedEvent(realmId, userId, streamId, topic, 0, now);

/** `user_topic` for the user whose visibility policy of a topic changed. */
export const userTopicChangedEvent = (
  realmId: number,
  userId: number,
  streamId: number,
  topic: string,
  policy: number,
  now: Date,
): OutgoingEvent =>
  outgoing(MessagingEvents.userTopicChanged, {
    realmId,
    users: [userId],
    event: {
      type: 'user_topic',
      stream_id: streamId,
      topic_name: topic,
      last_updated: Math.floor(now.getTime() / 1000),
      visibility_policy: policy,
    },
  });

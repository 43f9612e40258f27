import { z } from 'zod';
import { defineCommand } from '../command';

/**
 * Notifications of messages. The gateway's fan-out, which knows who has a client open (an event
 * queue that takes messages), hands every delivered message to the push service, which decides
 * who is notified and how (Zulip decides it where Tornado delivers the event).
 */
export const MESSAGE_NOTIFICATIONS_QUEUE = 'message-notifications';
export const MESSAGES_DELIVERED_JOB = 'messages-delivered.v1';
export const deliveredMessageSchema = z.object({
  realmId: z.number().int(),
  messageId: z.number().int(),
  /** Recipients with a client open (a queue that takes messages): not off the app. */
  activeUserIds: z.array(z.number().int()),
});
export type DeliveredMessage = z.infer<typeof deliveredMessageSchema>;
/**
 * The messages one fan-out replica delivered within a few milliseconds, decided together. A
 * redelivered event may be decided twice: the push job's id is its message's and email rows are
 * keyed, so that sends nothing twice while they wait.
 */
export const messagesDeliveredJobSchema = z.object({ messages: z.array(deliveredMessageSchema) });
export type MessagesDeliveredJob = z.infer<typeof messagesDeliveredJobSchema>;

/** Zulip's NotificationTriggers: why a user is notified of a message. */
export const NOTIFICATION_TRIGGERS = [
  'private_message',
  'mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'followed_topic_push_notify',
  'followed_topic_email_notify',
  'stream_push_notify',
  'stream_email_notify',
] as const;
export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];

/** Mobile pushes through the relay, retried with backoff. */
export const MOBILE_PUSH_QUEUE = 'mobile-push';
export const PUSH_MESSAGE_JOB = 'push-message.v1';
export const pushMessageJobSchema = z.object({
  realmId: z.number().int(),
  messageId: z.number().int(),
  userIds: z.array(z.number().int()),
  /** Set once the end-to-end encrypted part is with the relay, so a retry sends only the rest. */
  e2eeDone: z.boolean().optional(),
  /** Users whose token-registered devices were notified already. */
  tokensDone: z.array(z.number().int()).optional(),
});
export type PushMessageJob = z.infer<typeof pushMessageJobSchema>;
export const pushMessageJobId = (messageId: number) => `push-${messageId}`;

export const PUSH_REMOVE_JOB = 'push-remove.v1';
export const pushRemoveJobSchema = z.object({
  realmId: z.number().int(),
  userId: z.number().int(),
  messageIds: z.array(z.number().int()),
});
export type PushRemoveJob = z.infer<typeof pushRemoveJobSchema>;

/** Missed-message emails: one delayed job per recipient and batch. */
export const MISSED_MESSAGE_EMAIL_QUEUE = 'missed-message-emails';
export const MISSED_MESSAGE_EMAIL_JOB = 'missed-message-email.v1';
export const missedMessageEmailJobSchema = z.object({ userId: z.number().int() });
export type MissedMessageEmailJob = z.infer<typeof missedMessageEmailJobSchema>;
export const missedMessageEmailJobId = (userId: number, dueAt: number) => `mm-${userId}-${dueAt}`;

/** Where a missed-message email's unsubscribe link leads (on the organization's host), followed by the key. */
export const UNSUBSCRIBE_MISSED_MESSAGES_PATH = '/accounts/unsubscribe/missed_messages';

/**
 * Internal, from the gateway's GET /accounts/unsubscribe/missed_messages/<key> (no login: the
 * key is the proof): turns the key's user's missed-message emails off, when the key belongs to
 * the organization the host selects (NOT_FOUND otherwise).
 */
export const unsubscribeMissedMessages = defineCommand<{ host: string; key: string; requestId: string }, { realmName: string }>(
  'push',
  'unsubscribe_missed_messages',
  z.object({ host: z.string(), key: z.string(), requestId: z.string() }),
);

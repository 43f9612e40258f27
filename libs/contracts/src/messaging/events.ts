import { z } from 'zod';
import { clientEventSchema, defineEvent } from '../event';

/**
 * `event.messaging.message_sent.v1`: a new message. Each recipient gets the same `message`
 * with their own `flags`; the queue the sender named gets `local_message_id` back.
 */
export const messageSentSchema = z.object({
  realmId: z.number().int(),
  message: z.record(z.string(), z.unknown()),
  recipients: z.array(z.object({ id: z.number().int(), flags: z.array(z.string()) })),
  senderQueue: z.object({ userId: z.number().int(), queueId: z.string(), localId: z.string() }).optional(),
  /** Sent to a public channel: queues registered with all_public_streams get it too. */
  publicChannel: z.boolean().optional(),
  /** The sender shows a Gravatar: queues registered with client_gravatar get `avatar_url: null`. */
  senderGravatar: z.boolean().optional(),
});
export type MessageSent = z.infer<typeof messageSentSchema>;

/**
 * `event.messaging.attachments_linked.v1`: a sent message's content links uploaded files.
 * Published only when the content contains `/user_uploads/`; `pathIds` are the links' path ids
 * (`<realm_id>/<xx>/<random>/<name>`), which the uploads service matches to its attachments.
 */
export const attachmentsLinkedSchema = z.object({
  realmId: z.number().int(),
  messageId: z.number().int(),
  senderId: z.number().int(),
  /** Milliseconds since the epoch. */
  dateSent: z.number().int(),
  pathIds: z.array(z.string()),
});
export type AttachmentsLinked = z.infer<typeof attachmentsLinkedSchema>;


export const MessagingEvents = {
  /** Not a client event: tells the uploads service which attachments a message links. */
  attachmentsLinked: defineEvent('messaging', 'attachments_linked', attachmentsLinkedSchema),
  messageSent: defineEvent('messaging', 'message_sent', messageSentSchema),
  /** `delete_message` events, one per batch of deleted messages. */
  messagesDeleted: defineEvent('messaging', 'messages_deleted', clientEventSchema),
  /** `stream` events: create, update (e.g. `first_message_id`), delete. */
  channelChanged: defineEvent('messaging', 'channel_changed', clientEventSchema),
  /** `subscription` events: add, remove, update, peer_add, peer_remove. */
  subscriptionChanged: defineEvent('messaging', 'subscription_changed', clientEventSchema),
  /** `user_topic` events. */
  userTopicChanged: defineEvent('messaging', 'user_topic_changed', clientEventSchema),
  /** `saved_snippets` events: add, update, remove (the owner's clients only). */
  savedSnippetsChanged: defineEvent('messaging', 'saved_snippets_changed', clientEventSchema),
  /** `muted_users` events: the muter's whole list after a change (the muter's clients only). */
  mutedUsersChanged: defineEvent('messaging', 'muted_users_changed', clientEventSchema),
  /** `alert_words` events: the user's whole list after a change (their clients only; messaging's alert-word caches drop the organization). */
  alertWordsChanged: defineEvent('messaging', 'alert_words_changed', clientEventSchema),
  /** `drafts` events: add, update, remove. */
  draftsChanged: defineEvent('messaging', 'drafts_changed', clientEventSchema),
  /** `update_message` events (edits and moves), one per set of recipients sharing the same flags. */
  messageUpdated: defineEvent('messaging', 'message_updated', clientEventSchema),
  /** `reaction` add/remove events. */
  reactionChanged: defineEvent('messaging', 'reaction_changed', clientEventSchema),
  /** `submessage` events: a widget's vote or change, to everyone who received the message. */
  submessageAdded: defineEvent('messaging', 'submessage_added', clientEventSchema),
  /** `update_message_flags` events (read state). */
  messageFlagsChanged: defineEvent('messaging', 'message_flags_changed', clientEventSchema),
};

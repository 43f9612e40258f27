import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { draftSchema } from '../messaging/drafts';
import { savedSnippetSchema } from '../messaging/saved-snippets';
import { mutedUserSchema } from '../messaging/muted-users-alert-words';
import { messageSchema } from '../messaging/messages';
import { REACTION_TYPES } from '../presence/status';
import { scheduledMessageSchema } from '../scheduler/scheduled-messages';
import { base, withOp } from './client-event-shapes';

// Client events of messages: new, edited, deleted, reactions, flags, typing, drafts, scheduled
// messages (client-events.ts gathers every topic's events into one union and re-exports them).

/** `heartbeat`: what a long-poll with nothing to deliver answers. */
export const heartbeatEvent = apiSchema('HeartbeatEvent', z.object(base('heartbeat')));

/**
 * `message`: a new message, shaped for the queue (apply_markdown, client_gravatar, the empty
 * topic's display name), with the recipient's flags.
 */
export const messageEvent = apiSchema(
  'MessageEvent',
  z.object({
    ...base('message'),
    message: messageSchema,
    /** The recipient's flags (none for an all_public_streams queue's owner who is not a recipient). */
    flags: z.array(z.string()),
    /** Only to the sender's queue named by `queue_id` when sending: the `local_id` it sent. Zulip's name. */
    local_message_id: z.string().optional(),
    /** The same value, under the interface's name. */
    local_id: z.string().optional(),
  }),
);

/** A person as typing notifications name them. */
const typingPerson = z.object({ user_id: int(), email: z.string() });

/** `typing` start or stop, in a direct conversation (to its participants) or a channel topic. */
const typingEvent = <O extends 'start' | 'stop'>(op: O) =>
  z.union([
    z.object({
      ...withOp('typing', op),
      message_type: z.literal('direct'),
      sender: typingPerson,
      /** Every participant, the sender included. */
      recipients: z.array(typingPerson),
    }),
    z.object({
      ...withOp('typing', op),
      message_type: z.literal('stream'),
      sender: typingPerson,
      stream_id: int(),
      topic: z.string(),
    }),
  ]);
export const typingStartEvent = apiSchema('TypingStartEvent', typingEvent('start'));
export const typingStopEvent = apiSchema('TypingStopEvent', typingEvent('stop'));

/** `drafts` add: drafts created (POST /drafts). */
export const draftsAddEvent = apiSchema('DraftsAddEvent', z.object({ ...withOp('drafts', 'add'), drafts: z.array(draftSchema) }));
/** `drafts` update: a draft replaced (PATCH /drafts/{draft_id}). */
export const draftsUpdateEvent = apiSchema('DraftsUpdateEvent', z.object({ ...withOp('drafts', 'update'), draft: draftSchema }));
/** `drafts` remove: a draft deleted. */
export const draftsRemoveEvent = apiSchema('DraftsRemoveEvent', z.object({ ...withOp('drafts', 'remove'), draft_id: int() }));

/** `saved_snippets`: one of the caller's saved snippets added, edited or removed. */
export const savedSnippetsAddEvent = apiSchema('SavedSnippetsAddEvent', z.object({ ...withOp('saved_snippets', 'add'), saved_snippet: savedSnippetSchema }));
export const savedSnippetsUpdateEvent = apiSchema('SavedSnippetsUpdateEvent', z.object({ ...withOp('saved_snippets', 'update'), saved_snippet: savedSnippetSchema }));
export const savedSnippetsRemoveEvent = apiSchema('SavedSnippetsRemoveEvent', z.object({ ...withOp('saved_snippets', 'remove'), saved_snippet_id: int() }));

/** `muted_users`: the caller's muted users after a mute or an unmute (all of them). */
export const mutedUsersEvent = apiSchema('MutedUsersEvent', z.object({ ...base('muted_users'), muted_users: z.array(mutedUserSchema) }));

/** `alert_words`: the caller's alert words after a change (all of them). */
export const alertWordsEvent = apiSchema('AlertWordsEvent', z.object({ ...base('alert_words'), alert_words: z.array(z.string()) }));

/**
 * `delete_message`: messages of one channel topic deleted. Queues registered with the
 * `bulk_message_deletion` capability get every id in one event (`message_ids`); the others one
 * event per message (`message_id`).
 */
export const deleteMessageEvent = apiSchema(
  'DeleteMessageEvent',
  z.union([
    z.object({
      ...base('delete_message'),
      message_ids: z.array(int()),
      message_type: z.literal('stream'),
      stream_id: int(),
      topic: z.string(),
    }),
    z.object({
      ...base('delete_message'),
      message_id: int(),
      message_type: z.literal('stream'),
      stream_id: int(),
      topic: z.string(),
    }),
    z.object({ ...base('delete_message'), message_ids: z.array(int()), message_type: z.literal('private') }),
    z.object({ ...base('delete_message'), message_id: int(), message_type: z.literal('private') }),
  ]),
);

/**
 * `update_message`: a message edited (content keys) or messages moved (topic and channel keys),
 * with the recipient's flags on the edited message.
 */
export const updateMessageEvent = apiSchema(
  'UpdateMessageEvent',
  z.object({
    ...base('update_message'),
    /** Who edited; null for a rendering-only update. */
    user_id: int().nullable(),
    rendering_only: z.boolean(),
    message_id: int(),
    message_ids: z.array(int()),
    flags: z.array(z.string()),
    edit_timestamp: int(),
    stream_name: z.string().optional(),
    stream_id: int().optional(),
    new_stream_id: int().optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).optional(),
    orig_subject: z.string().optional(),
    subject: z.string().optional(),
    topic_links: z.array(z.object({ text: z.string(), url: z.string() })).optional(),
    orig_content: z.string().optional(),
    orig_rendered_content: z.string().optional(),
    content: z.string().optional(),
    rendered_content: z.string().optional(),
    is_me_message: z.boolean().optional(),
  }),
);

/** `reaction` add/remove: a user's emoji reaction to a message. */
const reactionEvent = <O extends 'add' | 'remove'>(op: O) =>
  z.object({
    ...withOp('reaction', op),
    message_id: int(),
    emoji_name: z.string(),
    emoji_code: z.string(),
    reaction_type: z.enum(REACTION_TYPES),
    user_id: int(),
    /** Deprecated: the reacting user. */
    user: z.object({ user_id: int(), email: z.string(), full_name: z.string() }),
  });
export const reactionAddEvent = apiSchema('ReactionAddEvent', reactionEvent('add'));
export const reactionRemoveEvent = apiSchema('ReactionRemoveEvent', reactionEvent('remove'));

/** `update_message_flags` remove: a flag cleared on the recipient's messages; a `read` removal details each message. */
export const updateMessageFlagsRemoveEvent = apiSchema(
  'UpdateMessageFlagsRemoveEvent',
  z.object({
    ...withOp('update_message_flags', 'remove'),
    /** Deprecated: the same as `op`. */
    operation: z.literal('remove'),
    flag: z.string(),
    messages: z.array(int()),
    all: z.boolean(),
    message_details: z
      .record(
        z.string(),
        z.object({
          type: z.enum(['private', 'stream']),
          mentioned: z.boolean().optional(),
          user_ids: z.array(int()).optional(),
          stream_id: int().optional(),
          topic: z.string().optional(),
          unmuted_stream_msg: z.boolean().optional(),
        }),
      )
      .optional(),
  }),
);

/** `update_message_flags` add: a flag set on the recipient's messages (POST /messages/flags, or read by topic). */
export const updateMessageFlagsAddEvent = apiSchema(
  'UpdateMessageFlagsAddEvent',
  z.object({
    ...withOp('update_message_flags', 'add'),
    /** Deprecated: the same as `op`. */
    operation: z.literal('add'),
    flag: z.string(),
    messages: z.array(int()),
    /** Always false: the flag was set on the listed messages only. */
    all: z.boolean(),
  }),
);

/** `scheduled_messages` add: messages the caller scheduled (POST /scheduled_messages). */
export const scheduledMessagesAddEvent = apiSchema(
  'ScheduledMessagesAddEvent',
  z.object({ ...withOp('scheduled_messages', 'add'), scheduled_messages: z.array(scheduledMessageSchema) }),
);
/** `scheduled_messages` update: one edited, or failed at delivery. */
export const scheduledMessagesUpdateEvent = apiSchema(
  'ScheduledMessagesUpdateEvent',
  z.object({ ...withOp('scheduled_messages', 'update'), scheduled_message: scheduledMessageSchema }),
);
/** `scheduled_messages` remove: one deleted, or delivered. */
export const scheduledMessagesRemoveEvent = apiSchema(
  'ScheduledMessagesRemoveEvent',
  z.object({ ...withOp('scheduled_messages', 'remove'), scheduled_message_id: int() }),
);


import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { authUserSchema, defineApiCommand, defineCommand, realmRefSchema, type AuthUser, type RealmRef, type ResultOf } from '../command';
import { apiSchema, int } from '../api/api-schemas';
import { REACTION_TYPES } from '../presence/status';

export const sendMessageParams = {
  type: param.oneOf(['direct', 'private', 'channel', 'stream']),
  /** A channel name or id, or a list of user ids or emails: parsed by the messaging service. */
  to: param.string(),
  content: param.string().allowNullBytes(),
  topic: param.string().allowNullBytes().alias('subject').optional(),
  queue_id: param.string().optional(),
  local_id: param.string().optional(),
  read_by_sender: param.bool().optional(),
};

export const sendMessage = defineApiCommand('messaging', 'send_message', {
  route: 'POST /messages',
  summary: 'Sends a channel or direct message.',
  params: sendMessageParams,
  response: z.object({
    id: int(),
    /** The visibility policy the send set on the topic for the sender, when it set one. */
    automatic_new_visibility_policy: int().optional(),
  }),
});
export type SendMessageResult = z.output<typeof sendMessage.response>;

/** One narrow term, in Zulip's object form or its legacy `[operator, operand]` pair. */
const narrowTerm = z.union([
  z
    .object({
      operator: z.string(),
      operand: z.union([z.string(), z.number().int(), z.array(z.union([z.string(), z.number().int()]))]),
      negated: z.boolean().optional(),
    })
    .strict(),
  z.tuple([z.string(), z.union([z.string(), z.number().int(), z.array(z.union([z.string(), z.number().int()]))])]),
]);
export type NarrowTerm = z.infer<typeof narrowTerm>;

/** A narrow term in one form, whichever Zulip's client sent (the gateway's event narrows and messaging's queries read it so). */
export interface NarrowTermParts {
  operator: string;
  operand: string | number | (string | number)[];
  negated: boolean;
}

export function narrowTermParts(term: NarrowTerm): NarrowTermParts {
  return Array.isArray(term) ? { operator: term[0], operand: term[1], negated: false } : { operator: term.operator, operand: term.operand, negated: term.negated ?? false };
}

export const getMessagesParams = {
  anchor: param.string().optional(),
  include_anchor: param.bool().default(true),
  num_before: param.json(z.number().int().min(0)).default(0),
  num_after: param.json(z.number().int().min(0)).default(0),
  narrow: param.json(z.array(narrowTerm)).default([]),
  client_gravatar: param.bool().default(true),
  apply_markdown: param.bool().default(true),
  use_first_unread_anchor: param.bool().default(false),
  message_ids: param.intList().optional(),
  allow_empty_topic_name: param.bool().default(false),
};

/** A direct message's participant, as `display_recipient` lists them. */
const displayRecipientUser = z.object({ id: int(), email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() });

/** A message as GET /messages and the `message` event show it (zerver/lib/message.py). */
export const messageSchema = apiSchema(
  'Message',
  z.object({
    id: int(),
    sender_id: int(),
    /** HTML with apply_markdown, else the Markdown source. */
    content: z.string(),
    content_type: z.enum(['text/html', 'text/x-markdown']),
    recipient_id: int(),
    timestamp: int(),
    client: z.string(),
    /** The topic ("" for a direct message). */
    subject: z.string(),
    topic_links: z.array(z.object({ text: z.string(), url: z.string() })),
    is_me_message: z.boolean(),
    reactions: z.array(
      z.object({ emoji_name: z.string(), emoji_code: z.string(), reaction_type: z.enum(REACTION_TYPES), user_id: int() }),
    ),
    submessages: z.array(
      z.object({ msg_type: z.string(), content: z.string(), message_id: int(), sender_id: int(), id: int() }),
    ),
    sender_full_name: z.string(),
    sender_email: z.string(),
    sender_realm_str: z.string(),
    /** Null when the client shows Gravatars itself (client_gravatar). */
    avatar_url: z.string().nullable(),
    /** A channel's name, or a direct message's participants. */
    display_recipient: z.union([z.string(), z.array(displayRecipientUser)]),
    type: z.enum(['stream', 'private']),
    stream_id: int().optional(),
    /** When the content was last edited, if ever. */
    last_edit_timestamp: int().optional(),
    /** When the message was last moved to another topic or channel, if ever. */
    last_moved_timestamp: int().optional(),
  }),
);
export type MessageRecord = z.output<typeof messageSchema>;

export const getMessages = defineApiCommand('messaging', 'get_messages', {
  route: 'GET /messages',
  summary: 'A page of the messages of a narrow around an anchor, or the messages named by `message_ids`.',
  params: getMessagesParams,
  response: z.object({
    anchor: int().optional(),
    found_anchor: z.boolean().optional(),
    found_oldest: z.boolean().optional(),
    found_newest: z.boolean().optional(),
    history_limited: z.boolean().optional(),
    messages: z.array(
      messageSchema.extend({
        flags: z.array(z.string()),
        /** With a search: the rendered content with the matched words highlighted. */
        match_content: z.string().optional(),
        /** With a search: the HTML-escaped topic with the matched words highlighted. */
        match_subject: z.string().optional(),
      }),
    ),
  }),
});
export type MessagesPage = z.output<typeof getMessages.response>;

/** A message as the scheduler hands it over: what POST /messages takes, already decided by a person earlier. */
const storedMessageShape = {
  type: z.enum(['stream', 'private']),
  /** As POST /messages takes it: a channel ID, or a JSON list of user IDs. */
  to: z.string(),
  topic: z.string().optional(),
  content: z.string(),
};

/**
 * Internal, from the scheduler: every check of POST /messages, nothing sent. Answers the
 * message as it would be stored (the channel or every participant, the normalized topic and
 * content, the rendered HTML), or the error sending would give.
 */
export const checkMessage = defineCommand<
  { realm: RealmRef; user: AuthUser; requestId: string; client?: string } & { type: 'stream' | 'private'; to: string; topic?: string; content: string },
  { streamId: number | null; recipientIds: number[]; topic: string; content: string; renderedContent: string }
>('messaging', 'check_message', z.object({ realm: realmRefSchema, user: authUserSchema, requestId: z.string(), client: z.string().max(30).optional(), ...storedMessageShape }));
export type CheckedMessage = ResultOf<typeof checkMessage>;

/**
 * Internal, from the scheduler: sends as a stored sender, through the same use case as POST
 * /messages (every rule and event applies), with the sending client it was scheduled from.
 * `scheduledMessageId` is the idempotency key: a key already used answers the message it
 * became (`alreadySent`) and sends nothing. The scheduler's notices to a sender go unkeyed.
 */
export const sendScheduledMessage = defineCommand<
  {
    realmId: number;
    senderId: number;
    client: string;
    readBySender: boolean | null;
    scheduledMessageId?: number;
    requestId: string;
    type: 'stream' | 'private';
    to: string;
    topic?: string;
    content: string;
  },
  { id: number; alreadySent: boolean }
>(
  'messaging',
  'send_scheduled_message',
  z.object({
    realmId: z.number().int(),
    senderId: z.number().int(),
    client: z.string().max(30),
    readBySender: z.boolean().nullable(),
    scheduledMessageId: z.number().int().optional(),
    requestId: z.string(),
    ...storedMessageShape,
  }),
);

export const updateMessageFlagsParams = {
  messages: param.intList(),
  op: param.oneOf(['add', 'remove']),
  flag: param.string(),
};

export const updateMessageFlags = defineApiCommand('messaging', 'update_message_flags', {
  route: 'POST /messages/flags',
  summary: "Adds or removes one of the caller's personal flags (read, starred, collapsed) on messages.",
  params: updateMessageFlagsParams,
  response: z.object({
    /** The messages whose flag changed. */
    messages: z.array(int()),
    /** Channels whose messages stayed read because the caller is not subscribed to them. */
    ignored_because_not_subscribed_channels: z.array(int()),
  }),
});

export const updateMessageFlagsForNarrowParams = {
  anchor: param.string(),
  include_anchor: param.bool().default(true),
  num_before: param.json(z.number().int().min(0)),
  num_after: param.json(z.number().int().min(0)),
  narrow: getMessagesParams.narrow,
  op: param.oneOf(['add', 'remove']),
  flag: param.string(),
};

export const updateMessageFlagsForNarrow = defineApiCommand('messaging', 'update_message_flags_for_narrow', {
  route: 'POST /messages/flags/narrow',
  summary: "Adds or removes one of the caller's personal flags on a range of the messages of a narrow.",
  params: updateMessageFlagsForNarrowParams,
  response: z.object({
    /** How many messages of the range were looked at, and how many of them changed. */
    processed_count: int(),
    updated_count: int(),
    first_processed_id: int().nullable(),
    last_processed_id: int().nullable(),
    found_oldest: z.boolean(),
    found_newest: z.boolean(),
    ignored_because_not_subscribed_channels: z.array(int()),
  }),
});

export const messagesMatchNarrowParams = {
  msg_ids: param.intList(),
  narrow: param.json(z.array(narrowTerm)),
};

export const messagesMatchNarrow = defineApiCommand('messaging', 'messages_match_narrow', {
  route: 'GET /messages/matches_narrow',
  summary: "Which of the caller's messages match a narrow, with a search's highlighting.",
  params: messagesMatchNarrowParams,
  response: z.object({
    messages: z.record(z.string(), z.object({ match_content: z.string(), match_subject: z.string() })),
  }),
});

export const markAllAsReadParams = {};

export const markAllAsRead = defineApiCommand('messaging', 'mark_all_as_read', {
  route: 'POST /mark_all_as_read',
  summary: "Marks all the caller's messages as read.",
  params: markAllAsReadParams,
  response: z.object({ complete: z.boolean() }),
});

export const markChannelAsReadParams = { stream_id: param.int() };

export const markChannelAsRead = defineApiCommand('messaging', 'mark_stream_as_read', {
  route: 'POST /mark_stream_as_read',
  summary: "Marks the caller's messages of a channel as read.",
  params: markChannelAsReadParams,
  response: z.object({}),
});

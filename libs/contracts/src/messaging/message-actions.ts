import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse, int } from '../api/api-schemas';
import { messageSchema } from './messages';

/** `message_id` comes from the path (`/messages/{message_id}…`); the gateway decodes it by this declaration. */
export const messagePathParams = {
  message_id: param.int(),
};

export const getMessageParams = {
  ...messagePathParams,
  apply_markdown: param.bool().default(true),
  allow_empty_topic_name: param.bool().default(false),
};

export const getMessage = defineApiCommand('messaging', 'get_message', {
  route: 'GET /messages/{message_id}',
  summary: 'One message the caller may read, with its Markdown source and the caller’s flags.',
  params: getMessageParams,
  response: z.object({
    /** The Markdown source (deprecated by Zulip in favour of `message.content` without apply_markdown). */
    raw_content: z.string(),
    message: messageSchema.extend({ flags: z.array(z.string()) }),
  }),
});

export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;

export const updateMessageParams = {
  ...messagePathParams,
  topic: param.string().allowNullBytes().alias('subject').optional(),
  propagate_mode: param.oneOf(PROPAGATE_MODES).default('change_one'),
  send_notification_to_old_thread: param.bool().default(false),
  send_notification_to_new_thread: param.bool().default(true),
  content: param.string().allowNullBytes().optional(),
  stream_id: param.int().optional(),
};

export const updateMessage = defineApiCommand('messaging', 'update_message', {
  route: 'PATCH /messages/{message_id}',
  summary: 'Edits a message’s content, or moves it (and maybe others of its topic) to another topic or channel.',
  params: updateMessageParams,
  response: z.object({
    /** Uploads no longer linked by the edited content (we do not track them yet: always empty). */
    detached_uploads: z.array(z.never()),
  }),
});

export const deleteMessage = defineApiCommand('messaging', 'delete_message', {
  route: 'DELETE /messages/{message_id}',
  summary: 'Deletes a message.',
  params: { ...messagePathParams },
  response: emptyResponse,
});

/** One snapshot of a message's edit history (Zulip's get-message-history). */
const historyEntrySchema = z.object({
  topic: z.string(),
  prev_topic: z.string().optional(),
  stream: int().optional(),
  prev_stream: int().optional(),
  content: z.string(),
  rendered_content: z.string(),
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  user_id: int().nullable(),
  content_html_diff: z.string().optional(),
  timestamp: int(),
});

export const getMessageHistory = defineApiCommand('messaging', 'get_message_history', {
  route: 'GET /messages/{message_id}/history',
  summary: 'A message’s edit history, oldest first: the original, then one snapshot per edit.',
  params: { ...messagePathParams, allow_empty_topic_name: param.bool().default(false) },
  response: z.object({ message_history: z.array(historyEntrySchema) }),
});

export const reactionParams = {
  ...messagePathParams,
  emoji_name: param.string(),
  emoji_code: param.string().optional(),
  reaction_type: param.string().optional(),
};

export const addReaction = defineApiCommand('messaging', 'add_reaction', {
  route: 'POST /messages/{message_id}/reactions',
  summary: 'Adds the caller’s emoji reaction to a message.',
  params: reactionParams,
  response: emptyResponse,
});

export const removeReactionParams = {
  ...messagePathParams,
  emoji_name: param.string().optional(),
  emoji_code: param.string().optional(),
  reaction_type: param.string().optional(),
};

export const removeReaction = defineApiCommand('messaging', 'remove_reaction', {
  route: 'DELETE /messages/{message_id}/reactions',
  summary: 'Removes the caller’s emoji reaction from a message.',
  params: removeReactionParams,
  response: emptyResponse,
});

export const renderMessage = defineApiCommand('messaging', 'render_message', {
  route: 'POST /messages/render',
  summary: 'Renders Markdown content as a message would show it, storing nothing.',
  params: { content: param.string().allowNullBytes() },
  response: z.object({ rendered: z.string() }),
});

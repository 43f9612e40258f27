import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

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

export interface SendMessageResult {
  id: number;
  automatic_new_visibility_policy?: number;
}

/** POST /messages. */
export const sendMessage = defineApiCommand<typeof sendMessageParams, SendMessageResult>(
  'messaging',
  'send_message',
  sendMessageParams,
);

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

export interface MessagesPage {
  anchor?: number;
  found_anchor?: boolean;
  found_oldest?: boolean;
  found_newest?: boolean;
  history_limited?: boolean;
  messages: Record<string, unknown>[];
}

/** GET /messages. */
export const getMessages = defineApiCommand<typeof getMessagesParams, MessagesPage>('messaging', 'get_messages', getMessagesParams);

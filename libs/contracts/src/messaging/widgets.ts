import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';

/**
 * POST /submessage (zerver/views/submessage.py process_submessage): a vote or change to a
 * widget (`/poll`, `/todo`) of a message the caller can read. Zulip serves it without
 * documenting it in its OpenAPI file.
 */
export const sendSubmessageParams = {
  message_id: param.int(),
  msg_type: param.string(),
  /** JSON text: checked against the message's widget's event schemas, stored as sent. */
  content: param.string(),
};

export const sendSubmessage = defineApiCommand('messaging', 'send_submessage', {
  route: 'POST /submessage',
  summary: "Adds a submessage (a widget's vote or change) to a message the caller can read.",
  params: sendSubmessageParams,
  response: emptyResponse,
});

/**
 * Internal, from the scheduler: the text of a reminder of a message (Zulip's
 * get_reminder_formatted_content), checked and rendered as the owner's direct message to
 * themselves. Refuses a message the owner may not read ("Invalid message(s)"), a note over
 * Zulip's limit, and an owner or organization no longer active.
 */
export const reminderContent = defineCommand<
  { realmId: number; userId: number; messageId: number; note: string | null; requestId: string },
  { content: string; renderedContent: string }
>(
  'messaging',
  'reminder_content',
  z.object({ realmId: z.number().int(), userId: z.number().int(), messageId: z.number().int(), note: z.string().nullable(), requestId: z.string() }),
);

/**
 * Internal, from presence for POST /messages/{message_id}/typing: checks that the caller may
 * edit the message's content (Zulip's access_message and validate_user_can_edit_message) and
 * answers where the message is and who would be told of the edit.
 */
export const editTypingAudience = defineCommand<
  { realmId: number; userId: number; messageId: number },
  | { type: 'channel'; channelId: number; topic: string; subscriberIds: number[] }
  | { type: 'direct'; userIds: number[] }
>('messaging', 'edit_typing_audience', z.object({ realmId: z.number().int(), userId: z.number().int(), messageId: z.number().int() }));

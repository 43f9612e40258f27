import { statement } from '@teamchat/db';

/** Edits of `messages` with their `edit_history` entries (EditHistoryRepository's). */

/**
 * An edit: content (null keeps it), topic and channel (null keeps them) of these messages, with
 * one edit-history entry prepended to each (Zulip keeps newest first). `edited` and `moved`
 * set last_edit_time and last_move_time.
 */
export const editMessages = statement<
  { id: number },
  [
    messageIds: number[],
    content: string | null,
    renderedContent: string | null,
    topic: string | null,
    streamId: number | null,
    at: Date,
    entry: string,
    hasLink: boolean | null,
    hasImage: boolean | null,
    hasAttachment: boolean | null,
  ]
>(
  'messaging.edit_messages',
  `UPDATE messages SET content = coalesce($2, content), rendered_content = coalesce($3, rendered_content),
     has_link = coalesce($8, has_link), has_image = coalesce($9, has_image), has_attachment = coalesce($10, has_attachment),
     topic = coalesce($4, topic), stream_id = coalesce($5, stream_id),
     last_edit_time = CASE WHEN $2::text IS NULL THEN last_edit_time ELSE $6 END,
     last_move_time = CASE WHEN $4::text IS NULL AND $5::int IS NULL THEN last_move_time ELSE $6 END,
     edit_history = jsonb_build_array($7::jsonb) || coalesce(edit_history, '[]'::jsonb)
   WHERE id = ANY($1::int[]) RETURNING id`,
);

/** Locks a message for an edit (until the transaction ends) and answers what the edit read it as. */
export const lockMessageForEdit = statement<{ content: string; topic: string; streamId: number | null }, [messageId: number]>(
  'messaging.lock_message_for_edit',
  `SELECT content, topic, stream_id AS "streamId" FROM messages WHERE id = $1 FOR UPDATE`,
);

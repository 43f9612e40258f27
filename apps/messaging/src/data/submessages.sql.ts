import { statement } from '@teamchat/db';

/** `submessages`' statements (SubmessagesRepository's). */

export interface SubmessageRow {
  id: number;
  messageId: number;
  senderId: number;
  msgType: string;
  content: string;
}

const COLUMNS = `id, message_id AS "messageId", sender_id AS "senderId", msg_type AS "msgType", content`;

/** The submessages of these messages, oldest first. */
export const submessagesOfMessages = statement<SubmessageRow, [messageIds: number[]]>(
  'messaging.submessages_of_messages',
  `SELECT ${COLUMNS} FROM submessages WHERE message_id = ANY($1::int[]) ORDER BY id`,
);

/** Adds a submessage; answers it. */
export const insertSubmessage = statement<SubmessageRow, [messageId: number, senderId: number, msgType: string, content: string]>(
  'messaging.insert_submessage',
  `INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
);

/**
 * What deciding on a new submessage needs (Zulip's verify_submessage_sender and
 * get_widget_type): whether the message's sender has attached one, and the first widget's content.
 */
export const submessageState = statement<{ senderHasOne: boolean; widgetContent: string | null }, [messageId: number, messageSenderId: number]>(
  'messaging.submessage_state',
  `SELECT EXISTS (SELECT 1 FROM submessages WHERE message_id = $1 AND sender_id = $2) AS "senderHasOne",
     (SELECT content FROM submessages WHERE message_id = $1 AND msg_type = 'widget' ORDER BY id LIMIT 1) AS "widgetContent"`,
);

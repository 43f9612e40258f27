import { statement } from '@teamchat/db';

/** `reactions`' statements (ReactionsRepository's). */

/** The reactions of these messages, oldest first. */
export const reactionsOfMessages = statement<
  { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string },
  [messageIds: number[]]
>(
  'messaging.reactions_of_messages',
  `SELECT message_id AS "messageId", user_id AS "userId", emoji_name AS "emojiName", emoji_code AS "emojiCode",
     reaction_type AS "reactionType"
   FROM reactions WHERE message_id = ANY($1::int[]) ORDER BY id`,
);

/** Adds a reaction; no row when the user already reacted with that emoji. */
export const insertReaction = statement<{ id: number }, [messageId: number, userId: number, name: string, code: string, type: string]>(
  'messaging.insert_reaction',
  `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (user_id, message_id, emoji_code, reaction_type) DO NOTHING RETURNING id`,
);

/** Removes a user's reaction; answers its name, no row when there was none. */
export const deleteReaction = statement<{ emojiName: string }, [messageId: number, userId: number, code: string, type: string]>(
  'messaging.delete_reaction',
  `DELETE FROM reactions WHERE message_id = $1 AND user_id = $2 AND emoji_code = $3 AND reaction_type = $4 RETURNING emoji_name AS "emojiName"`,
);

import { statement } from '@teamchat/db';

/** READ-ONLY: `realm_emoji` (users-groups' table), for checking a reaction's emoji and rendering `:name:`. */

/** An organization's custom emoji by name (active ones) or by id (any), for checking a reaction's emoji. */
export const customEmojiByName = statement<{ id: number }, [realmId: number, name: string]>(
  'messaging.custom_emoji_by_name',
  `SELECT id FROM realm_emoji WHERE realm_id = $1 AND name = $2 AND NOT deactivated ORDER BY id LIMIT 1`,
);
export const customEmojiById = statement<{ id: number; name: string; deactivated: boolean }, [realmId: number, id: number]>(
  'messaging.custom_emoji_by_id',
  `SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = $1 AND id = $2`,
);

/** An organization's active custom emoji, for rendering (each `:name:` becomes its image). */
export const activeCustomEmoji = statement<{ name: string; fileName: string }, [realmId: number]>(
  'messaging.active_custom_emoji',
  `SELECT name, file_name AS "fileName" FROM realm_emoji WHERE realm_id = $1 AND NOT deactivated ORDER BY id`,
);

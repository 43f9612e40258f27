import { statement } from '@teamchat/db';

/** `alert_words`' statements (AlertWordsRepository's). */

/** A user's alert words, in the order they were added. */
export const alertWordsOf = statement<{ word: string }, [userId: number]>(
  'messaging.alert_words_of',
  `SELECT word FROM alert_words WHERE user_id = $1 ORDER BY id`,
);

/** Adds words (distinct whatever their case); one the user has already in any case is skipped. */
export const insertAlertWords = statement<Record<string, never>, [realmId: number, userId: number, words: string[]]>(
  'messaging.insert_alert_words',
  `INSERT INTO alert_words (realm_id, user_id, word) SELECT $1, $2, w FROM unnest($3::text[]) WITH ORDINALITY AS t(w, n) ORDER BY n
   ON CONFLICT DO NOTHING`,
);

/** Removes the user's words equal to any of these whatever the case. */
export const deleteAlertWords = statement<Record<string, never>, [userId: number, words: string[]]>(
  'messaging.delete_alert_words',
  `DELETE FROM alert_words WHERE user_id = $1 AND lower(word) = ANY(SELECT lower(w) FROM unnest($2::text[]) AS w)`,
);

/** Every alert word of an organization with its owner (what a send matches against). */
export const realmAlertWords = statement<{ userId: number; word: string }, [realmId: number]>(
  'messaging.realm_alert_words',
  `SELECT user_id AS "userId", word FROM alert_words WHERE realm_id = $1`,
);

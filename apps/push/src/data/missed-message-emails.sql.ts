import { statement } from '@teamchat/db';

/** The user's whole batch, taken out in one statement when any of it is due (else nothing). */
export const takeDueBatch = statement<{ messageId: number; trigger: string }, [userId: number, now: Date]>(
  'push.take_due_batch',
  `DELETE FROM missed_message_emails
    WHERE user_id = $1 AND EXISTS (SELECT 1 FROM missed_message_emails WHERE user_id = $1 AND due_at <= $2)
    RETURNING message_id AS "messageId", trigger`,
);

/** The user's unsubscribe key: the one kept, or this new one. */
export const unsubscribeKeyOf = statement<{ key: string }, [userId: number, realmId: number, key: string]>(
  'push.unsubscribe_key_of',
  `INSERT INTO missed_message_unsubscribe_keys (key, user_id, realm_id) VALUES ($3, $1, $2)
   ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id
   RETURNING key`,
);

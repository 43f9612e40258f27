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

/**
 * Adds messages to their recipients' batches in one statement: a message joins the
 * recipient's open batch (due at its time), else the batch its first new message starts; a
 * message already waiting keeps its place. Answers each recipient's due time.
 */
export const addToBatches = statement<
  { userId: number; dueAt: Date },
  [userIds: number[], messageIds: number[], realmIds: number[], triggers: string[], dueAts: Date[]]
>(
  'push.add_to_batches',
  `WITH input AS (
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::timestamptz[]) AS t(user_id, message_id, realm_id, trigger, due_at)
   ), open AS (
     SELECT user_id, min(due_at) AS due_at FROM missed_message_emails WHERE user_id = ANY($1::int[]) GROUP BY user_id
   ), batched AS (
     SELECT i.user_id, i.message_id, i.realm_id, i.trigger, COALESCE(o.due_at, min(i.due_at) OVER (PARTITION BY i.user_id)) AS due_at
       FROM input i LEFT JOIN open o ON o.user_id = i.user_id
   ), inserted AS (
     INSERT INTO missed_message_emails (user_id, message_id, realm_id, trigger, due_at)
     SELECT user_id, message_id, realm_id, trigger, due_at FROM batched
     ON CONFLICT DO NOTHING
   )
   SELECT DISTINCT user_id AS "userId", due_at AS "dueAt" FROM batched`,
);

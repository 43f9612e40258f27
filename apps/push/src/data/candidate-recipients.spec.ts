import { createTestDatabase, dropTestDatabase } from '@teamchat/testing';
import { Client } from 'pg';
import { candidateRecipients } from './notification-context.readonly.sql';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows each table's scans read (returned and filtered out, over every loop). */
function rowsRead(node: PlanNode, totals = new Map<string, number>()): Map<string, number> {
  const relation = node['Relation Name'];
  if (relation) totals.set(relation, (totals.get(relation) ?? 0) + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']);
  for (const child of node.Plans ?? []) rowsRead(child, totals);
  return totals;
}

/**
 * push.candidate_recipients reads a message, its recipients' rows of each table and its channel's
 * subscriptions, however many messages, users and subscriptions the installation holds, in the generic plan
 * push's connections use (DbModule.withGenericPlans) as in a custom one. Written as plain joins,
 * the generic plan merge-joined `messages` and `users` from their first rows up to the ids asked
 * for: a cost that grew with the whole table.
 */
describe('push.candidate_recipients at scale', () => {
  const RECIPIENTS = 200;
  let database: { name: string; url: string };
  let client: Client;
  let messageId: number;
  let mentionedId: number;
  let everywhereId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    const realm = (await client.query<{ id: number }>(`INSERT INTO realms (name, subdomain) VALUES ('Big', 'big') RETURNING id`)).rows[0].id;
    await client.query(
      `INSERT INTO users (realm_id, delivery_email, full_name) SELECT $1, 'user' || g || '@big.test', 'User ' || g FROM generate_series(1, 3000) g`,
      [realm],
    );
    const users = (await client.query<{ id: number }>(`SELECT id FROM users WHERE realm_id = $1 ORDER BY id`, [realm])).rows.map((row) => row.id);
    const stream = (await client.query<{ id: number }>(`INSERT INTO streams (realm_id, name) VALUES ($1, 'general') RETURNING id`, [realm])).rows[0].id;
    const sender = users[0];
    await client.query(
      `INSERT INTO messages (realm_id, sender_id, stream_id, topic, content, rendered_content)
       SELECT $1, $2, $3, 'topic ' || (g % 50), 'hello', '<p>hello</p>' FROM generate_series(1, 5000) g`,
      [realm, sender, stream],
    );
    messageId = (await client.query<{ id: number }>(`SELECT max(id) AS id FROM messages`)).rows[0].id;
    // The message's recipients are the last users (the highest ids); one of them is mentioned.
    const recipients = users.slice(-RECIPIENTS);
    mentionedId = recipients[7];
    // One has push notifications on for every channel: a candidate without being mentioned.
    everywhereId = recipients[11];
    await client.query(`UPDATE users SET settings = '{"enable_stream_push_notifications": true}' WHERE id = $1`, [everywhereId]);
    await client.query(`INSERT INTO subscriptions (stream_id, user_id) SELECT $1, u FROM unnest($2::int[]) AS u`, [stream, [sender, ...recipients]]);
    // The organization's other channels, each user in ten of them.
    await client.query(`INSERT INTO streams (realm_id, name) SELECT $1, 'channel ' || g FROM generate_series(1, 100) g`, [realm]);
    await client.query(
      `INSERT INTO subscriptions (stream_id, user_id)
       SELECT s.id, u.id FROM users u JOIN streams s ON s.realm_id = u.realm_id AND s.id <> $2 AND (s.id + u.id) % 10 = 0 WHERE u.realm_id = $1`,
      [realm, stream],
    );
    await client.query(`INSERT INTO user_messages (user_id, message_id, flags) SELECT u, $1, CASE WHEN u = $3 THEN 8 ELSE 0 END FROM unnest($2::int[]) AS u`, [
      messageId,
      recipients,
      mentionedId,
    ]);
    await client.query('ANALYZE');
  });

  afterAll(async () => {
    await client?.end();
    await dropTestDatabase(database.name);
  });

  for (const mode of ['force_generic_plan', 'force_custom_plan']) {
    it(`reads only the message and its recipients' rows (${mode})`, async () => {
      await client.query(`SET plan_cache_mode = ${mode}`);
      const name = `candidates_${mode}`;
      await client.query(`PREPARE ${name}(int[], int) AS ${candidateRecipients.text}`);
      // Past Postgres's first custom plans, as a long-lived connection is.
      for (let i = 0; i < 6; i++) await client.query(`EXECUTE ${name}(ARRAY[${messageId}], 140)`);

      const rows = (await client.query<{ userId: number; flags: number }>(`EXECUTE ${name}(ARRAY[${messageId}], 140)`)).rows;
      expect(rows.map((row) => [row.userId, row.flags]).sort((a, b) => a[0] - b[0])).toEqual([
        [mentionedId, 8],
        [everywhereId, 0],
      ]);

      const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(ARRAY[${messageId}], 140)`);
      const read = rowsRead(explained.rows[0]['QUERY PLAN'][0].Plan);
      expect(read.get('messages')).toBe(1);
      expect(read.get('user_messages')).toBe(RECIPIENTS);
      // Only the candidates' own rows: the others are judged without them (see candidateRecipients).
      expect(read.get('users') ?? 0).toBeLessThanOrEqual(2 * 2); // two candidates, each read at most twice
      // The channel's subscriptions: its recipients and the sender, of the 30,000 in all.
      expect(read.get('subscriptions') ?? 0).toBeLessThanOrEqual(RECIPIENTS + 1);
    });
  }
});

import { Redis } from 'ioredis';
import { Pool } from 'pg';

/**
 * What durability adds to the floor (BENCH_FLOOR_DURABLE=1): before a message's event is
 * handed to the waiting polls, the message and a row per recipient are committed to Postgres in
 * one statement (as messaging's send writes `messages` and `user_messages`), and the event is
 * appended to every queue's list in Redis by one script (a counter and a list per queue, as the
 * gateway's queues are kept), so that another server could answer the queues. Acknowledged
 * events are trimmed from the lists twice a second. No broker, no services, no authentication:
 * the least a durable long-polling server can cost here, to read the project's figures against.
 */
export class DurableFloor {
  private readonly pool: Pool;
  private readonly redis: Redis;
  private delivered: Promise<unknown> = Promise.resolve();

  private constructor(databaseUrl: string, redisUrl: string, private readonly prefix: string) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 4 });
    this.redis = new Redis(redisUrl);
    this.redis.defineCommand('floorAppend', {
      lua: `for q = 1, #KEYS, 2 do redis.call('HINCRBY', KEYS[q], 'last', 1); redis.call('RPUSH', KEYS[q + 1], ARGV[1]) end`,
    });
    this.redis.defineCommand('floorTrim', {
      lua: `for q = 1, #KEYS do local keep = tonumber(ARGV[q]); if keep == 0 then redis.call('DEL', KEYS[q]) else redis.call('LTRIM', KEYS[q], -keep, -1) end end`,
    });
  }

  static async open(databaseUrl: string, redisUrl: string, prefix: string): Promise<DurableFloor> {
    const floor = new DurableFloor(databaseUrl, redisUrl, prefix);
    await floor.pool.query(`
      CREATE TABLE IF NOT EXISTS messages (id int PRIMARY KEY, content text NOT NULL, sent_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS user_messages (user_id int NOT NULL, message_id int NOT NULL, flags int NOT NULL DEFAULT 0, PRIMARY KEY (user_id, message_id));
      CREATE INDEX IF NOT EXISTS user_messages_message_id ON user_messages (message_id);`);
    return floor;
  }

  /**
   * Stores the message (Postgres, then every queue's copy in Redis), then calls `deliver`, in
   * the order the messages came: stores overlap, deliveries do not overtake each other.
   */
  store(id: number, message: string, queueIds: string[], deliver: () => void): Promise<void> {
    const stored = this.persist(id, message, queueIds);
    const delivered = Promise.all([stored, this.delivered]).then(deliver);
    this.delivered = delivered.catch(() => undefined);
    return delivered;
  }

  private async persist(id: number, message: string, queueIds: string[]): Promise<void> {
    await this.pool.query({
      name: 'floor-persist',
      text: `WITH message AS (INSERT INTO messages (id, content) VALUES ($1, $2))
             INSERT INTO user_messages (user_id, message_id) SELECT user_id, $1 FROM unnest($3::int[]) AS user_id`,
      values: [id, message, queueIds.map((_, index) => index + 1)],
    });
    const keys = queueIds.flatMap((queueId) => [`${this.prefix}q:${queueId}`, `${this.prefix}q:${queueId}:e`]);
    await (this.redis as unknown as { floorAppend(count: number, ...args: string[]): Promise<unknown> }).floorAppend(keys.length, ...keys, message);
  }

  /** Keeps each queue's list to its events not yet acknowledged (`pending`: queue id → how many). */
  trim(pending: Map<string, number>): Promise<unknown> {
    const queueIds = [...pending.keys()];
    if (queueIds.length === 0) return Promise.resolve();
    return (this.redis as unknown as { floorTrim(count: number, ...args: (string | number)[]): Promise<unknown> }).floorTrim(
      queueIds.length,
      ...queueIds.map((queueId) => `${this.prefix}q:${queueId}:e`),
      ...queueIds.map((queueId) => pending.get(queueId)!),
    );
  }

  async close(): Promise<void> {
    const keys = await this.redis.keys(`${this.prefix}*`);
    for (let at = 0; at < keys.length; at += 1000) await this.redis.del(...keys.slice(at, at + 1000));
    this.redis.disconnect();
    await this.pool.end();
  }
}

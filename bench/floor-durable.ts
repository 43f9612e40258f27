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
  }

  /** On a database of its own (the bench's migrated copy: the floor's tables beside the project's, with none of their triggers). */
  static async open(databaseUrl: string, redisUrl: string, prefix: string): Promise<DurableFloor> {
    const floor = new DurableFloor(databaseUrl, redisUrl, prefix);
    await floor.pool.query(`
      CREATE TABLE floor_messages (id int PRIMARY KEY, content text NOT NULL, sent_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE floor_user_messages (user_id int NOT NULL, message_id int NOT NULL, flags int NOT NULL DEFAULT 0, PRIMARY KEY (user_id, message_id));
      CREATE INDEX ON floor_user_messages (message_id);`);
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
      text: `WITH message AS (INSERT INTO floor_messages (id, content) VALUES ($1, $2))
             INSERT INTO floor_user_messages (user_id, message_id) SELECT user_id, $1 FROM unnest($3::int[]) AS user_id`,
      values: [id, message, queueIds.map((_, index) => index + 1)],
    });
    const keys = queueIds.flatMap((queueId) => this.keysOf(queueId));
    await this.redis.eval(APPEND, keys.length, ...keys, message);
  }

  /** Keeps each queue's list to its events not yet acknowledged (`pending`: queue id → how many). */
  async trim(pending: Map<string, number>): Promise<void> {
    if (pending.size === 0) return;
    const lists = [...pending.keys()].map((queueId) => this.keysOf(queueId)[1]);
    await this.redis.eval(TRIM, lists.length, ...lists, ...pending.values());
  }

  /** Removes the queues' keys (`queueIds`: every queue the floor had) and closes the connections. */
  async close(queueIds: string[]): Promise<void> {
    const keys = queueIds.flatMap((queueId) => this.keysOf(queueId));
    for (let at = 0; at < keys.length; at += 1000) await this.redis.del(...keys.slice(at, at + 1000));
    this.redis.disconnect();
    await this.pool.end();
  }

  /** A queue's counter and list. */
  private keysOf(queueId: string): [string, string] {
    return [`${this.prefix}q:${queueId}`, `${this.prefix}q:${queueId}:e`];
  }
}

/** Each queue's counter and list (KEYS in pairs) get the event (ARGV[1]), as the gateway's append does. */
const APPEND = `for q = 1, #KEYS, 2 do redis.call('HINCRBY', KEYS[q], 'last', 1); redis.call('RPUSH', KEYS[q + 1], ARGV[1]) end`;
/** Each list (KEYS[q]) keeps its last ARGV[q] events. */
const TRIM = `for q = 1, #KEYS do local keep = tonumber(ARGV[q]); if keep == 0 then redis.call('DEL', KEYS[q]) else redis.call('LTRIM', KEYS[q], -keep, -1) end end`;

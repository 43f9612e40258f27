import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

export interface StoredPresenceRow {
  userId: number;
  /** Unix seconds; 0 when the user was never active. */
  lastActive: number;
  lastConnected: number;
  lastUpdateId: string;
}

/** A batch of users' presence to write, column by column (Unix seconds; lastActive 0: never active). */
export interface PresenceBatch {
  userIds: number[];
  realmIds: number[];
  lastActive: number[];
  lastConnected: number[];
  updateIds: string[];
}

/** An organization's flushed presence, read back when Redis has none of it. */
const storedPresenceOfRealm = statement<StoredPresenceRow, [realmId: number]>(
  'presence.stored_presence_of_realm',
  `SELECT user_id AS "userId", coalesce(extract(epoch FROM last_active_time)::int, 0) AS "lastActive",
     extract(epoch FROM last_connected_time)::int AS "lastConnected", last_update_id::text AS "lastUpdateId"
   FROM user_presence WHERE realm_id = $1`,
);

/**
 * The flush: many users' presence in one statement. A row never goes back to an older update
 * (two replicas flushing at once, or a late retry).
 */
const flushPresence = statement<
  never,
  [userIds: number[], realmIds: number[], lastActive: number[], lastConnected: number[], updateIds: string[]]
>(
  'presence.flush_presence',
  `INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
   SELECT u, r, CASE WHEN a > 0 THEN to_timestamp(a) END, to_timestamp(c), i
   FROM unnest($1::int[], $2::int[], $3::bigint[], $4::bigint[], $5::bigint[]) AS t(u, r, a, c, i)
   ON CONFLICT (user_id) DO UPDATE SET realm_id = EXCLUDED.realm_id, last_active_time = EXCLUDED.last_active_time,
     last_connected_time = EXCLUDED.last_connected_time, last_update_id = EXCLUDED.last_update_id
   WHERE user_presence.last_update_id < EXCLUDED.last_update_id`,
);

/**
 * The `user_presence` table: the durable copy of presence, which lives in Redis
 * (`PresenceStore`). Written by the flush, read back when Redis has lost an organization.
 */
@Injectable()
export class UserPresenceRepository {
  constructor(private readonly pg: PgService) {}

  /** Every flushed entry of the organization. */
  ofRealm(realmId: number): Promise<StoredPresenceRow[]> {
    return this.pg.run(storedPresenceOfRealm, realmId);
  }

  /** Upserts a batch in one statement; a row never goes back to an older update id. */
  async save(batch: PresenceBatch): Promise<void> {
    await this.pg.run(flushPresence, batch.userIds, batch.realmIds, batch.lastActive, batch.lastConnected, batch.updateIds);
  }
}

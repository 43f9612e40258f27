import { statement } from '@teamchat/db';

/**
 * Presence's hot-path SQL (typing is sent on every few keystrokes), in one place: each
 * statement named, prepared once per connection, run through PgService.
 */

export interface PersonRow {
  id: number;
  deliveryEmail: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  settings: unknown;
  realmDefaults: unknown;
}

/** Users of the organization by id, deactivated ones included, with the organization's setting defaults. */
export const peopleByIds = statement<PersonRow, [realmId: number, userIds: number[]]>(
  'presence.people_by_ids',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND u.id = ANY($2::int[])`,
);

/** Every active user of the organization, in id order. */
export const activeUserIds = statement<{ id: number }, [realmId: number]>(
  'presence.active_user_ids',
  `SELECT id FROM users WHERE realm_id = $1 AND is_active ORDER BY id`,
);

// ---- presence (POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence, POST /register) ----

export interface PresencePersonRow extends PersonRow {
  /** Unix seconds. */
  dateJoined: number;
}

/**
 * The active humans among these users of the organization, with what presence shows of them:
 * the address (and its visibility setting), presence_enabled and when they joined.
 */
export const presencePeople = statement<PresencePersonRow, [realmId: number, userIds: number[]]>(
  'presence.presence_people',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults", floor(extract(epoch FROM u.date_joined))::int AS "dateJoined"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND u.id = ANY($2::int[]) AND u.is_active AND NOT u.is_bot`,
);

/** A user of the organization by real address, case aside (for GET /users/{email}/presence). */
export const peopleByDeliveryEmail = statement<PersonRow, [realmId: number, email: string]>(
  'presence.people_by_delivery_email',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND lower(u.delivery_email) = lower($2)
   ORDER BY u.id`,
);

export interface StoredPresenceRow {
  userId: number;
  /** Unix seconds; 0 when the user was never active. */
  lastActive: number;
  lastConnected: number;
  lastUpdateId: string;
}

/** An organization's flushed presence, read back when Redis has none of it. */
export const storedPresenceOfRealm = statement<StoredPresenceRow, [realmId: number]>(
  'presence.stored_presence_of_realm',
  `SELECT user_id AS "userId", coalesce(extract(epoch FROM last_active_time)::int, 0) AS "lastActive",
     extract(epoch FROM last_connected_time)::int AS "lastConnected", last_update_id::text AS "lastUpdateId"
   FROM user_presence WHERE realm_id = $1`,
);

/**
 * The flush: many users' presence in one statement. A row never goes back to an older update
 * (two replicas flushing at once, or a late retry).
 */
export const flushPresence = statement<
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

/** An organization's subdomain (its host for the addresses presence events show). */
export const realmSubdomain = statement<{ subdomain: string }, [realmId: number]>(
  'presence.realm_subdomain',
  `SELECT subdomain FROM realms WHERE id = $1`,
);

import { statement } from '@teamchat/db';

/** `muted_users`' statements (MutedUsersRepository's). */

/** Mutes a user; no row when the muter had muted them already. */
export const insertMute = statement<{ id: number }, [userId: number, mutedUserId: number]>(
  'messaging.insert_mute',
  `INSERT INTO muted_users (user_id, muted_user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id`,
);

/** Unmutes a user; no row when they were not muted. */
export const deleteMute = statement<{ id: number }, [userId: number, mutedUserId: number]>(
  'messaging.delete_mute',
  `DELETE FROM muted_users WHERE user_id = $1 AND muted_user_id = $2 RETURNING id`,
);

/** The users a user muted, with when (Unix seconds), in the order they were muted. */
export const mutesOf = statement<{ id: number; timestamp: number }, [userId: number]>(
  'messaging.mutes_of',
  `SELECT muted_user_id AS id, floor(extract(epoch FROM date_muted))::int AS timestamp FROM muted_users WHERE user_id = $1 ORDER BY id`,
);

/** Every mute among an organization's users: who muted whom. */
export const mutesInRealm = statement<{ userId: number; mutedUserId: number }, [realmId: number]>(
  'messaging.mutes_in_realm',
  `SELECT mu.user_id AS "userId", mu.muted_user_id AS "mutedUserId" FROM muted_users mu JOIN users u ON u.id = mu.user_id WHERE u.realm_id = $1`,
);

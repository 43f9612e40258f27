import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `users` (and their `realms` row), as messaging reads them. Messaging never writes these tables. */

/** What messaging needs to know about a user (users-groups' table, read only). */
export interface DirectoryUserRow {
  id: number;
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
}

const DIRECTORY_COLUMNS = `id, realm_id AS "realmId", delivery_email AS "deliveryEmail", full_name AS "fullName", role,
  is_active AS "isActive", is_bot AS "isBot"`;

/** Active users of the organization among these ids. */
export const activeUsersByIds = statement<DirectoryUserRow, [realmId: number, userIds: number[]]>(
  'messaging.active_users_by_ids',
  `SELECT ${DIRECTORY_COLUMNS} FROM users WHERE realm_id = $1 AND is_active AND id = ANY($2::int[])`,
);

/**
 * For each address in order, the active user with that real address (any case) or with its
 * dummy id (Zulip's `user<id>@…` form), in one round trip; `position` is the address's 1-based
 * place in the list, and an address nobody has is absent.
 */
export const activeUsersByEmails = statement<DirectoryUserRow & { position: number }, [realmId: number, emails: string[], dummyIds: (number | null)[]]>(
  'messaging.active_users_by_emails',
  `SELECT e.position::int AS position, u.*
     FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS e(email, dummy_id, position)
     CROSS JOIN LATERAL (
       SELECT ${DIRECTORY_COLUMNS} FROM users
        WHERE realm_id = $1 AND is_active AND (lower(delivery_email) = lower(e.email) OR id = e.dummy_id)
        ORDER BY id LIMIT 1) u`,
);

/** Every active user of the organization, in id order. */
export const activeUsersOfRealm = statement<DirectoryUserRow, [realmId: number]>(
  'messaging.active_users_of_realm',
  `SELECT ${DIRECTORY_COLUMNS} FROM users WHERE realm_id = $1 AND is_active ORDER BY id`,
);

/** A user of the organization by id, whether active or not, bot or not. */
export const userOfRealm = statement<DirectoryUserRow, [realmId: number, userId: number]>(
  'messaging.user_of_realm',
  `SELECT ${DIRECTORY_COLUMNS} FROM users WHERE realm_id = $1 AND id = $2`,
);

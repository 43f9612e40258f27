import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `users` (and their `realms` row), as messaging reads them. Messaging never writes these tables. */

/** A person's row: their profile as messages show it, before settings are resolved and the email chosen. */
export interface MemberProfileRow {
  id: number;
  fullName: string;
  deliveryEmail: string;
  avatarSource: string;
  avatarVersion: number;
  isBot: boolean;
  isActive: boolean;
  role: number;
  settings: unknown;
  realmDefaults: unknown;
}

/** People by id, with their stored settings and their organization's defaults. */
export const memberProfiles = statement<MemberProfileRow, [userIds: number[]]>(
  'messaging.member_profiles',
  `SELECT u.id, u.full_name AS "fullName", u.delivery_email AS "deliveryEmail", u.avatar_source AS "avatarSource",
     u.avatar_version AS "avatarVersion", u.is_bot AS "isBot", u.is_active AS "isActive", u.role, u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.id = ANY($1::int[])`,
);

/** Active users of the organization a message could mention: by full name whatever its case, or by id. */
export const mentionableUsers = statement<{ id: number; fullName: string }, [realmId: number, names: string[], userIds: number[]]>(
  'messaging.mentionable_users',
  `SELECT id, full_name AS "fullName" FROM users
   WHERE realm_id = $1 AND is_active AND (lower(full_name) IN (SELECT lower(name) FROM unnest($2::text[]) AS name) OR id = ANY($3::int[]))`,
);

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

/** A stored sender and their organization, whatever their state: what a scheduled send re-checks. */
export interface StoredSenderRow {
  id: number;
  fullName: string;
  deliveryEmail: string;
  role: number;
  isBot: boolean;
  isActive: boolean;
  subdomain: string;
  realmName: string;
  realmDeactivated: boolean;
}

export const storedSender = statement<StoredSenderRow, [realmId: number, userId: number]>(
  'messaging.stored_sender',
  `SELECT u.id, u.full_name AS "fullName", u.delivery_email AS "deliveryEmail", u.role, u.is_bot AS "isBot",
     u.is_active AS "isActive", r.subdomain, r.name AS "realmName", r.deactivated AS "realmDeactivated"
   FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.realm_id = $1 AND u.id = $2`,
);

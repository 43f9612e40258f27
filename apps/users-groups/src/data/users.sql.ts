import { Prisma, columnsOf, statement, type UserModel } from '@teamchat/db';

/**
 * The `users` table's named statements (UsersRepository's alone): GET /users on the hot path,
 * and user administration, where each change is one pg transaction with the group membership
 * it moves (GroupMembershipRepository reads through pg). Columns come back in the Prisma models' camelCase.
 */

/** What a member record is made from (zerver/lib/users.py format_user_row). */
export type UserRow = Pick<
  UserModel,
  | 'id'
  | 'realmId'
  | 'deliveryEmail'
  | 'fullName'
  | 'role'
  | 'isActive'
  | 'isBot'
  | 'botType'
  | 'botOwnerId'
  | 'timezone'
  | 'avatarSource'
  | 'avatarVersion'
  | 'dateJoined'
  | 'settings'
>;

const USER_COLUMNS = `id, realm_id AS "realmId", delivery_email AS "deliveryEmail", full_name AS "fullName", role, is_active AS "isActive",
  is_bot AS "isBot", bot_type AS "botType", bot_owner_id AS "botOwnerId", timezone, avatar_source AS "avatarSource",
  avatar_version AS "avatarVersion", date_joined AS "dateJoined", settings`;

/** Every column of `users` (realm-columns.spec holds the rows to Prisma's). */
const ALL_USER_COLUMNS = columnsOf(Prisma.UserScalarFieldEnum);

/** One account of the organization, every column (POST /register's caller). */
export const wholeUserOfRealm = statement<UserModel, [realmId: number, userId: number]>(
  'users_groups.whole_user_of_realm',
  `SELECT ${ALL_USER_COLUMNS} FROM users WHERE realm_id = $1 AND id = $2`,
);

/** Every account of the organization, active or not, in id order. */
export const usersOfRealm = statement<UserRow, [realmId: number]>(
  'users_groups.users_of_realm',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 ORDER BY id`,
);

/** The organization's accounts with ids after `afterId`, in id order, at most `limit`. */
export const usersOfRealmPage = statement<UserRow, [realmId: number, afterId: number, limit: number]>(
  'users_groups.users_of_realm_page',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
);

/** The organization's accounts among these ids, in id order. */
export const usersOfRealmByIds = statement<UserRow, [realmId: number, userIds: number[]]>(
  'users_groups.users_of_realm_by_ids',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 AND id = ANY($2::int[]) ORDER BY id`,
);

/** The organization's account with this id (or none). */
export const userOfRealm = statement<UserRow, [realmId: number, userId: number]>(
  'user_admin.user_of_realm',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 AND id = $2`,
);

/** The organization's accounts with this real address, whatever its case (at most one). */
export const usersByDeliveryEmail = statement<UserRow, [realmId: number, email: string]>(
  'user_admin.users_by_delivery_email',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 AND lower(delivery_email) = lower($2)`,
);

/** The user's row, locked until the transaction ends: concurrent changes to one user queue up. */
export const lockUser = statement<UserRow, [userId: number]>(
  'user_admin.lock_user',
  `SELECT ${USER_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`,
);

/**
 * The organization's active human owners, locked: two owners demoting or deactivating each
 * other at once are serialised here, so the organization never loses its last owner.
 */
export const lockHumanOwners = statement<{ id: number }, [realmId: number]>(
  'user_admin.lock_human_owners',
  `SELECT id FROM users WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot ORDER BY id FOR UPDATE`,
);

/** Whether the caller holds Zulip's can_change_user_emails special permission. */
export const canChangeUserEmails = statement<{ canChangeUserEmails: boolean }, [userId: number]>(
  'user_admin.can_change_user_emails',
  `SELECT can_change_user_emails AS "canChangeUserEmails" FROM users WHERE id = $1`,
);

/** The organization's active users with their roles (who receive the organization's events). */
export const activeUsersOfRealm = statement<{ id: number; role: number }, [realmId: number]>(
  'user_admin.active_users_of_realm',
  `SELECT id, role FROM users WHERE realm_id = $1 AND is_active ORDER BY id`,
);

/** The user's active bots, locked (deactivated with them). */
export const lockActiveBotsOwnedBy = statement<{ id: number }, [ownerId: number]>(
  'user_admin.lock_active_bots_owned_by',
  `SELECT id FROM users WHERE bot_owner_id = $1 AND is_bot AND is_active ORDER BY id FOR UPDATE`,
);

export const setRole = statement<never, [userId: number, role: number]>('user_admin.set_role', `UPDATE users SET role = $2 WHERE id = $1`);

export const setActive = statement<never, [userIds: number[], active: boolean]>(
  'user_admin.set_active',
  `UPDATE users SET is_active = $2 WHERE id = ANY($1::int[])`,
);

export const setFullName = statement<never, [userId: number, fullName: string]>(
  'user_admin.set_full_name',
  `UPDATE users SET full_name = $2 WHERE id = $1`,
);

export const setDeliveryEmail = statement<never, [userId: number, email: string]>(
  'user_admin.set_delivery_email',
  `UPDATE users SET delivery_email = $2 WHERE id = $1`,
);

/** A new avatar source (`U` uploaded, `G` Gravatar); the version goes up, so the URL changes. */
export const changeAvatarSource = statement<UserRow, [userId: number, source: string]>(
  'users_groups.change_avatar_source',
  `UPDATE users SET avatar_source = $2, avatar_version = avatar_version + 1 WHERE id = $1 RETURNING ${USER_COLUMNS}`,
);

export const setBotOwner = statement<never, [botId: number, ownerId: number]>(
  'user_admin.set_bot_owner',
  `UPDATE users SET bot_owner_id = $2 WHERE id = $1`,
);

/** The organization's accounts among these ids, as a Users field's value needs them. */
export const accountsOfRealm = statement<{ id: number; isActive: boolean; isBot: boolean }, [realmId: number, userIds: number[]]>(
  'user_admin.accounts_of_realm',
  `SELECT id, is_active AS "isActive", is_bot AS "isBot" FROM users WHERE realm_id = $1 AND id = ANY($2::int[])`,
);

/** The organization's active human administrators and owners (Zulip's get_human_admin_users). */
export const activeHumanAdminsOfRealm = statement<{ id: number }, [realmId: number]>(
  'user_admin.active_human_admins_of_realm',
  `SELECT id FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot AND role <= 200 ORDER BY id`,
);

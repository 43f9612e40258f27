import { statement, type RealmModel, type UserModel } from '@teamchat/db';

/**
 * Users-groups' hot-path SQL, in one place: each statement named, prepared once per
 * connection, run through PgService. (Prisma keeps the schema and the cold paths.) Columns
 * come back in the Prisma models' camelCase.
 */

/** What a member record is made from (zerver/lib/users.py format_user_row). */
export type UserRow = Pick<
  UserModel,
  | 'id'
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

export const USER_COLUMNS = `id, delivery_email AS "deliveryEmail", full_name AS "fullName", role, is_active AS "isActive",
  is_bot AS "isBot", bot_type AS "botType", bot_owner_id AS "botOwnerId", timezone, avatar_source AS "avatarSource",
  avatar_version AS "avatarVersion", date_joined AS "dateJoined", settings`;

/** Every account of the organization, active or not, in id order. */
export const usersOfRealm = statement<UserRow, [realmId: number]>(
  'users_groups.users_of_realm',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 ORDER BY id`,
);

/** The organization's accounts among these ids, in id order. */
export const usersOfRealmByIds = statement<UserRow, [realmId: number, userIds: number[]]>(
  'users_groups.users_of_realm_by_ids',
  `SELECT ${USER_COLUMNS} FROM users WHERE realm_id = $1 AND id = ANY($2::int[]) ORDER BY id`,
);

/** Custom profile field values of these users. */
export const profileFieldValues = statement<
  { userId: number; fieldId: number; value: string; renderedValue: string | null },
  [userIds: number[]]
>(
  'users_groups.profile_field_values',
  `SELECT user_id AS "userId", field_id AS "fieldId", value, rendered_value AS "renderedValue"
   FROM custom_profile_field_values WHERE user_id = ANY($1::int[])`,
);

/** What selecting an organization by host needs of it (see RealmDirectory.toInfo). */
export type RealmRow = Pick<
  RealmModel,
  'id' | 'subdomain' | 'name' | 'description' | 'deactivated' | 'enableSpectatorAccess' | 'passwordAuthEnabled'
>;

/** The organization at a subdomain ("" for the root domain). */
export const realmBySubdomain = statement<RealmRow, [subdomain: string]>(
  'users_groups.realm_by_subdomain',
  `SELECT id, subdomain, name, description, deactivated, enable_spectator_access AS "enableSpectatorAccess",
     password_auth_enabled AS "passwordAuthEnabled"
   FROM realms WHERE subdomain = $1`,
);

/** The owner of an API key, with their organization's subdomain. */
export const apiKeyOwner = statement<
  Pick<UserModel, 'id' | 'realmId' | 'deliveryEmail' | 'fullName' | 'role' | 'isActive' | 'isBot' | 'settings'> & { realmSubdomain: string },
  [apiKey: string]
>(
  'users_groups.api_key_owner',
  `SELECT u.id, u.realm_id AS "realmId", u.delivery_email AS "deliveryEmail", u.full_name AS "fullName", u.role,
     u.is_active AS "isActive", u.is_bot AS "isBot", u.settings, r.subdomain AS "realmSubdomain"
   FROM api_keys k JOIN users u ON u.id = k.user_id JOIN realms r ON r.id = u.realm_id
   WHERE k.key = $1`,
);

import { statement } from '@teamchat/db';
import { USER_COLUMNS, type UserRow } from './users-groups.sql';

/**
 * User administration's SQL (cold paths, but each change is one transaction with the group
 * membership it moves, which GroupMembership reads through pg): look-ups of one user, the row
 * locks that serialise changes to a user and to the organization's owners, and the writes.
 */

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

export const setBotOwner = statement<never, [botId: number, ownerId: number]>(
  'user_admin.set_bot_owner',
  `UPDATE users SET bot_owner_id = $2 WHERE id = $1`,
);

/** Which of these groups are named (system or user-defined); anonymous groups are setting values. */
export const namedGroupIds = statement<{ id: number }, [groupIds: number[]]>(
  'user_admin.named_group_ids',
  `SELECT id FROM user_groups WHERE id = ANY($1::int[]) AND name IS NOT NULL ORDER BY id`,
);

export interface ProfileFieldRow {
  id: number;
  name: string;
  fieldType: number;
  fieldData: string;
  editableByUser: boolean;
}

/** The organization's custom profile fields among these ids. */
export const profileFieldsOfRealm = statement<ProfileFieldRow, [realmId: number, fieldIds: number[]]>(
  'user_admin.profile_fields_of_realm',
  `SELECT id, name, field_type AS "fieldType", field_data AS "fieldData", editable_by_user AS "editableByUser"
   FROM custom_profile_fields WHERE realm_id = $1 AND id = ANY($2::int[])`,
);

/** The organization's accounts among these ids, as a Users field's value needs them. */
export const accountsOfRealm = statement<{ id: number; isActive: boolean; isBot: boolean }, [realmId: number, userIds: number[]]>(
  'user_admin.accounts_of_realm',
  `SELECT id, is_active AS "isActive", is_bot AS "isBot" FROM users WHERE realm_id = $1 AND id = ANY($2::int[])`,
);

/** The user's stored values of these fields. */
export const profileValuesOfUser = statement<{ fieldId: number; value: string }, [userId: number, fieldIds: number[]]>(
  'user_admin.profile_values_of_user',
  `SELECT field_id AS "fieldId", value FROM custom_profile_field_values WHERE user_id = $1 AND field_id = ANY($2::int[])`,
);

export const upsertProfileValue = statement<never, [userId: number, fieldId: number, value: string, renderedValue: string | null]>(
  'user_admin.upsert_profile_value',
  `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES ($1, $2, $3, $4)
   ON CONFLICT (user_id, field_id) DO UPDATE SET value = EXCLUDED.value, rendered_value = EXCLUDED.rendered_value`,
);

export const deleteProfileValue = statement<never, [userId: number, fieldId: number]>(
  'user_admin.delete_profile_value',
  `DELETE FROM custom_profile_field_values WHERE user_id = $1 AND field_id = $2`,
);

/**
 * The newest message the user has received (Zulip's deprecated max_message_id), read from
 * messaging's user_messages: read-only, the one read of that table here.
 */
export const maxMessageIdOf = statement<{ maxMessageId: number | null }, [userId: number]>(
  'user_admin.max_message_id_of',
  `SELECT max(message_id) AS "maxMessageId" FROM user_messages WHERE user_id = $1`,
);

import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `users` and `realms` as messages show people (MemberProfilesReadonlyRepository's). */

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
  /** A bot's type (3: outgoing webhook, which messages can trigger); absent where a statement does not read it. */
  botType?: number | null;
}

/** People by id, with their stored settings and their organization's defaults. */
export const memberProfiles = statement<MemberProfileRow, [userIds: number[]]>(
  'messaging.member_profiles',
  `SELECT u.id, u.full_name AS "fullName", u.delivery_email AS "deliveryEmail", u.avatar_source AS "avatarSource",
     u.avatar_version AS "avatarVersion", u.is_bot AS "isBot", u.is_active AS "isActive", u.role, u.settings,
     r.user_settings_defaults AS "realmDefaults", u.bot_type AS "botType"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.id = ANY($1::int[])`,
);

/** Active users of the organization a message could mention: by full name whatever its case, or by id. */
export const mentionableUsers = statement<{ id: number; fullName: string }, [realmId: number, names: string[], userIds: number[]]>(
  'messaging.mentionable_users',
  `SELECT id, full_name AS "fullName" FROM users
   WHERE realm_id = $1 AND is_active AND (lower(full_name) IN (SELECT lower(name) FROM unnest($2::text[]) AS name) OR id = ANY($3::int[]))`,
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

/** A user's stored settings and their organization's defaults. */
export const storedSettings = statement<{ settings: unknown; realmDefaults: unknown }, [realmId: number, userId: number]>(
  'messaging.stored_settings',
  `SELECT u.settings, r.user_settings_defaults AS "realmDefaults" FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.realm_id = $1 AND u.id = $2`,
);

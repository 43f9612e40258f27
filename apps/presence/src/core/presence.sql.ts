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

import { Injectable } from '@nestjs/common';
import { apiEmail, resolveSettings, type RealmRef } from '@teamchat/contracts';
import { PgService, isStoredId, statement } from '@teamchat/db';
import type { Person } from '../core/person';

/**
 * Presence's hot-path SQL on people (typing is sent on every few keystrokes): each statement
 * named, prepared once per connection, run through PgService.
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

export interface PresencePersonRow extends PersonRow {
  /** Unix seconds. */
  dateJoined: number;
}

/** Users of the organization by id, deactivated ones included, with the organization's setting defaults. */
const peopleByIds = statement<PersonRow, [realmId: number, userIds: number[]]>(
  'presence.people_by_ids',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND u.id = ANY($2::int[])`,
);

/** Every active user of the organization, in id order. */
const activeUserIds = statement<{ id: number }, [realmId: number]>(
  'presence.active_user_ids',
  `SELECT id FROM users WHERE realm_id = $1 AND is_active ORDER BY id`,
);

/**
 * The active humans among these users of the organization, with what presence shows of them:
 * the address (and its visibility setting), presence_enabled and when they joined.
 */
const presencePeople = statement<PresencePersonRow, [realmId: number, userIds: number[]]>(
  'presence.presence_people',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults", floor(extract(epoch FROM u.date_joined))::int AS "dateJoined"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND u.id = ANY($2::int[]) AND u.is_active AND NOT u.is_bot`,
);

/** A user of the organization by real address, case aside (for GET /users/{email}/presence). */
const peopleByDeliveryEmail = statement<PersonRow, [realmId: number, email: string]>(
  'presence.people_by_delivery_email',
  `SELECT u.id, u.delivery_email AS "deliveryEmail", u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.realm_id = $1 AND lower(u.delivery_email) = lower($2)
   ORDER BY u.id`,
);

/**
 * READ-ONLY view of users-groups' `users` table (with the organization's setting defaults from
 * `realms`): who people are, whether they are active and their settings (typing notifications,
 * presence_enabled). Presence never writes these tables; a setting changes through
 * users-groups' commands.
 */
@Injectable()
export class PeopleReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** Users of the organization by id, deactivated ones included; unknown ids are left out. */
  async byIds(realm: Pick<RealmRef, 'id' | 'host'>, ids: readonly number[]): Promise<Map<number, Person>> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (wanted.length === 0) return new Map();
    const rows = await this.pg.run(peopleByIds, realm.id, wanted);
    return new Map(
      rows.map((user) => {
        const settings = resolveSettings(user.realmDefaults, user.settings);
        const email = apiEmail(user, settings.email_address_visibility, realm.host);
        return [user.id, { id: user.id, email, role: user.role, isActive: user.isActive, isBot: user.isBot, settings }];
      }),
    );
  }

  /** One user of the organization, deactivated or not; null when there is none. */
  async byId(realm: Pick<RealmRef, 'id' | 'host'>, id: number): Promise<Person | null> {
    return (await this.byIds(realm, [id])).get(id) ?? null;
  }

  /** Every active user of the organization, bots included (who hears of a status change). */
  async activeIds(realmId: number): Promise<number[]> {
    return (await this.pg.run(activeUserIds, realmId)).map((row) => row.id);
  }

  /** The active humans among these users of the organization (ids Postgres can hold), with their joining date. */
  activeHumans(realmId: number, ids: number[]): Promise<PresencePersonRow[]> {
    return this.pg.run(presencePeople, realmId, ids);
  }

  /** Users of the organization with this real address, case aside, in id order. */
  byDeliveryEmail(realmId: number, email: string): Promise<PersonRow[]> {
    return this.pg.run(peopleByDeliveryEmail, realmId, email);
  }
}

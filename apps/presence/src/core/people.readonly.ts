import { Injectable } from '@nestjs/common';
import { apiEmail, resolveSettings, type RealmRef, type UserSettings } from '@teamchat/contracts';
import { PgService, isStoredId } from '@teamchat/db';
import { activeUserIds, peopleByIds } from './presence.sql';

/** What presence needs to know about a person. */
export interface Person {
  id: number;
  /** The address the API shows for them (a dummy one when their email is hidden). */
  email: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  settings: UserSettings;
}

/**
 * READ-ONLY view of users-groups' `users` and `realms` tables: who people are, whether they
 * are active and their settings (typing notifications, presence_enabled). Presence never
 * writes these tables; a setting changes through users-groups' commands.
 */
@Injectable()
export class PeopleReadonly {
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
}

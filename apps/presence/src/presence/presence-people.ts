import { Injectable } from '@nestjs/common';
import { apiEmail, canSeeDeliveryEmail, resolveSettings, EmailVisibility, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import type { Person } from '../core/person';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';

/** An active human as presence shows them. */
export interface PresencePerson {
  id: number;
  email: string;
  presenceEnabled: boolean;
  /** Unix seconds. */
  dateJoined: number;
}

/**
 * Who presence reports (read from users-groups' tables through PeopleReadonlyRepository): active
 * humans, and of them only those sharing their presence (presence_enabled), as Zulip's invisible
 * mode wants.
 */
@Injectable()
export class PresencePeople {
  constructor(private readonly people: PeopleReadonlyRepository) {}

  /** The active humans among `ids`, by id. */
  async activeHumans(realm: Pick<RealmRef, 'id' | 'host'>, ids: readonly number[]): Promise<Map<number, PresencePerson>> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (wanted.length === 0) return new Map();
    const rows = await this.people.activeHumans(realm.id, wanted);
    return new Map(
      rows.map((row) => {
        const settings = resolveSettings(row.realmDefaults, row.settings);
        const email = apiEmail(row, settings.email_address_visibility, realm.host);
        return [row.id, { id: row.id, email, presenceEnabled: settings.presence_enabled, dateJoined: row.dateJoined }];
      }),
    );
  }

  /** Everyone who hears of a presence change: every active user, bots included (Zulip's active_user_ids). */
  audience(realmId: number): Promise<number[]> {
    return this.people.activeIds(realmId);
  }

  /**
   * The user GET /users/{user_id_or_email}/presence names: by id, by the dummy address
   * `user<id>@<host>`, or by a real address the caller may see; an active human of the
   * organization, else "No such user" (Zulip maps every refusal of access_user_by_* to it).
   */
  async named(realm: RealmRef, caller: AuthUser, idOrEmail: string): Promise<Person> {
    let target: Person | null | undefined;
    const dummy = new RegExp(`^user(\\d+)@${realm.host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i').exec(idOrEmail);
    if (/^-?\d+$/.test(idOrEmail) || dummy) {
      const id = Number(dummy ? dummy[1] : idOrEmail);
      target = isStoredId(id) ? await this.people.byId(realm, id) : null;
    } else {
      const candidates = await this.people.byDeliveryEmail(realm.id, idOrEmail.trim());
      const visible = candidates.find((candidate) => {
        const visibility = candidate.isBot ? EmailVisibility.EVERYONE : resolveSettings(candidate.realmDefaults, candidate.settings).email_address_visibility;
        return canSeeDeliveryEmail({ id: 0, role: caller.role }, candidate.id, visibility);
      });
      target = visible && (await this.people.byId(realm, visible.id));
    }
    if (!target || !target.isActive || target.isBot) throw badRequest('No such user');
    return target;
  }
}

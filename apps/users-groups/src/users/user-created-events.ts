import { Injectable } from '@nestjs/common';
import { onConnection, type PgTransaction, type Transaction } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository, type UserRow } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { groupMembershipEvents } from './system-group-events';
import { UserAccess } from './user-access';
import { realmUserEvent, type ClientAnnouncement } from './user-admin-events';
import { toUserRecord, unknownUserRecord } from './user-record';

/** What a new account's creation announces, read in the transaction that made it (see userCreatedEvents). */
@Injectable()
export class UserCreatedEvents {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly access: UserAccess,
    private readonly realms: RealmDirectory,
  ) {}

  async of(realm: { id: number; subdomain: string }, userId: number, tx: PgTransaction | Transaction): Promise<{ row: UserRow; events: ClientAnnouncement[] }> {
    const pgTx = onConnection(tx);
    const row = (await this.users.inRealm(realm.id, userId, pgTx))!;
    const recipients = await this.users.activeOfRealm(realm.id, tx);
    const groupIds = await this.groups.directNamedGroupsOf(userId, pgTx);
    const hiddenFrom = await this.access.guestsNotSeeing(realm.id, userId, tx);
    const shown = { id: realm.id, host: this.realms.hostnameOf(realm.subdomain), url: this.realms.urlOf(realm.subdomain) };
    return { row, events: userCreatedEvents(shown, row, recipients, groupIds, hiddenFrom) };
  }
}

/**
 * What Zulip's do_create_user announces of a new account, human or bot: `realm_user` add to
 * every active user (one event per distinct record: the real address is shown to some viewers
 * and not others), then `user_group` add_members for the named groups the account is in. The
 * guests can_access_all_users_group hides the account from (`hiddenFrom`) are sent Zulip's
 * "Unknown user" record instead, marked `inaccessible_user`: the gateway sends it on without the
 * mark, and not at all to clients with `user_list_incomplete` (Zulip's notify_created_user).
 */
export function userCreatedEvents(
  realm: { id: number; host: string; url: string },
  row: UserRow,
  recipients: { id: number; role: number }[],
  groupIds: number[],
  hiddenFrom: ReadonlySet<number>,
): ClientAnnouncement[] {
  const byPerson = new Map<string, number[]>();
  const unknownTo: number[] = [];
  for (const viewer of recipients) {
    if (hiddenFrom.has(viewer.id)) {
      unknownTo.push(viewer.id);
      continue;
    }
    const person = JSON.stringify(toUserRecord(row, { viewer, realmHost: realm.host, clientGravatar: false }));
    byPerson.set(person, [...(byPerson.get(person) ?? []), viewer.id]);
  }
  const published = [...byPerson].map(([person, users]) => realmUserEvent(realm.id, users, 'add', JSON.parse(person) as Record<string, unknown>));
  if (unknownTo.length > 0) published.push(realmUserEvent(realm.id, unknownTo, 'add', unknownUserRecord(row.id, realm), { inaccessible_user: true }));
  published.push(...groupMembershipEvents(realm.id, row.id, [], groupIds, recipients.map((recipient) => recipient.id)));
  return published;
}

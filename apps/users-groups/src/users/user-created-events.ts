import { UsersGroupsEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';
import type { UserRow } from '../data/users.repository';
import { groupMembershipEvents } from './system-group-events';
import { toUserRecord } from './user-record';

/**
 * What Zulip's do_create_user announces of a new account, human or bot: `realm_user` add to
 * every active user (one event per distinct record: the real address is shown to some viewers
 * and not others), then `user_group` add_members for the named groups the account is in.
 */
export function userCreatedEvents(
  realmId: number,
  row: UserRow,
  recipients: { id: number; role: number }[],
  realmHost: string,
  groupIds: number[],
): { def: EventDef<ClientEvent>; payload: ClientEvent }[] {
  const byPerson = new Map<string, number[]>();
  for (const viewer of recipients) {
    const person = JSON.stringify(toUserRecord(row, { viewer, realmHost, clientGravatar: false }));
    byPerson.set(person, [...(byPerson.get(person) ?? []), viewer.id]);
  }
  const published: { def: EventDef<ClientEvent>; payload: ClientEvent }[] = [...byPerson].map(([person, users]) => ({
    def: UsersGroupsEvents.realmUserChanged,
    payload: { realmId, users, event: { type: 'realm_user', op: 'add', person: JSON.parse(person) as Record<string, unknown> } },
  }));
  published.push(...groupMembershipEvents(realmId, row.id, [], groupIds, recipients.map((recipient) => recipient.id)));
  return published;
}

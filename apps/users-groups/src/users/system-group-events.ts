import { UsersGroupsEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';
import type { GroupMembership, Queryable } from '@teamchat/db';
import { namedGroupIds } from '../core/user-administration.sql';

/**
 * The named groups (system and user-defined) the user is a direct member of now. System groups'
 * members follow from role and being active, so a role change or a (re)activation moves the
 * user between groups by itself: read this before and after the change, in its transaction,
 * and announce the difference with `groupMembershipEvents`. Anonymous groups (permission
 * settings' values) are left out: Zulip announces those as setting updates, not membership.
 */
export async function directNamedGroupsOf(tx: Queryable, groups: GroupMembership, userId: number): Promise<number[]> {
  const direct = await groups.directGroupsOf(userId, tx);
  if (direct.length === 0) return [];
  return (await tx.run(namedGroupIds, direct)).map((row) => row.id);
}

/**
 * `user_group` remove_members for each group the user left, then add_members for each it
 * joined, to `recipients` (the organization's active users), as Zulip's do_change_user_role
 * and do_reactivate_user send them.
 */
export function groupMembershipEvents(
  realmId: number,
  userId: number,
  before: number[],
  after: number[],
  recipients: number[],
): { def: EventDef<ClientEvent>; payload: ClientEvent }[] {
  const left = before.filter((id) => !after.includes(id));
  const joined = after.filter((id) => !before.includes(id));
  const event = (op: 'add_members' | 'remove_members', groupId: number) => ({
    def: UsersGroupsEvents.userGroupChanged as EventDef<ClientEvent>,
    payload: { realmId, users: recipients, event: { type: 'user_group', op, group_id: groupId, user_ids: [userId] } },
  });
  return [...left.map((id) => event('remove_members', id)), ...joined.map((id) => event('add_members', id))];
}

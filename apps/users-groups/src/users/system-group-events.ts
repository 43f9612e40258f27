import { UsersGroupsEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';

/**
 * The difference of the named groups a user is a direct member of before and after a change
 * (UserGroupsRepository.directNamedGroupsOf, read in its transaction), as events:
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

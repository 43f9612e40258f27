import { Injectable } from '@nestjs/common';
import type { UserCommand, AuthUser, GroupPermissionSettingName, UsersGroups } from '@teamchat/contracts';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { GroupParts } from './group-parts';
import { GroupPermissions } from './group-permissions';
import { UserGroupEvents, type UserGroupEvent } from './user-group-events';

interface Changes {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

/**
 * POST /user_groups/{id}/members and POST /user_groups/{id}/subgroups (zerver/views/user_groups.py):
 * adding oneself needs can_join_group (or can_add_members_group), adding others
 * can_add_members_group, leaving can_leave_group, removing others can_remove_members_group,
 * and subgroups the add or remove permission; managing the group allows all of it, deactivated
 * or not. Members must be active users of the organization; a subgroup may never contain its
 * supergroup. All or nothing, checked before anything changes.
 */
@Injectable()
export class ChangeGroupMembership {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly parts: GroupParts,
    private readonly outbox: EventOutbox,
    private readonly permissions: GroupPermissions,
    private readonly membership: GroupMembershipRepository,
    private readonly events: UserGroupEvents,
  ) {}

  members({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof UsersGroups.updateUserGroupMembersParams>>) {
    const changes = {
      add: unique(params.add),
      delete: unique(params.delete),
      addSubgroups: unique(params.add_subgroups),
      deleteSubgroups: unique(params.delete_subgroups),
    };
    if (Object.values(changes).every((ids) => ids.length === 0)) {
      throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    }
    return this.apply(realm.id, user, params.user_group_id, changes, requestId);
  }

  subgroups({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof UsersGroups.updateUserGroupSubgroupsParams>>) {
    const changes = { add: [], delete: [], addSubgroups: unique(params.add), deleteSubgroups: unique(params.delete) };
    if (changes.addSubgroups.length === 0 && changes.deleteSubgroups.length === 0) {
      throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    }
    return this.apply(realm.id, user, params.user_group_id, changes, requestId);
  }

  private async apply(realmId: number, caller: AuthUser, groupId: number, changes: Changes, requestId: string): Promise<Record<string, never>> {
    const group = await this.permissions.forUpdate(caller, groupId, this.required(caller, changes), { allowDeactivated: true });

    const everyone = await this.events.audience(realmId);
    return this.outbox.runCold(async (tx) => {
      const direct = new Set(await this.groups.activeDirectMemberIds(group.id, tx));
      if (changes.add.length > 0) {
        await this.parts.checkActiveUsers(realmId, changes.add, tx);
        const already = changes.add.find((id) => direct.has(id));
        if (already !== undefined) throw badRequest(`User ${already} is already a member of this group`);
      }
      const notMember = changes.delete.find((id) => !direct.has(id));
      if (notMember !== undefined) throw badRequest(`There is no member '${notMember}' in this user group`);

      const subgroups = new Set(await this.groups.directSubgroupIds(group.id, tx));
      if (changes.addSubgroups.length > 0) {
        await this.parts.checkSubgroups(realmId, changes.addSubgroups, tx);
        const already = changes.addSubgroups.find((id) => subgroups.has(id));
        if (already !== undefined) throw badRequest(`User group ${already} is already a subgroup of this group.`);
        const below = await this.membership.subgroups(changes.addSubgroups, tx);
        if (changes.addSubgroups.includes(group.id) || [...below.values()].some((ids) => ids.includes(group.id))) {
          throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
        }
      }
      const notSubgroup = changes.deleteSubgroups.find((id) => !subgroups.has(id));
      if (notSubgroup !== undefined) throw badRequest(`User group ${notSubgroup} is not a subgroup of this group.`);

      await this.groups.changeParts(group.id, changes, tx);

      const events: UserGroupEvent[] = [];
      const event = (op: string, key: string, ids: number[]) => {
        if (ids.length > 0) events.push({ event: { type: 'user_group', op, group_id: group.id, [key]: ids } });
      };
      event('add_members', 'user_ids', changes.add);
      event('remove_members', 'user_ids', changes.delete);
      event('add_subgroups', 'direct_subgroup_ids', changes.addSubgroups);
      event('remove_subgroups', 'direct_subgroup_ids', changes.deleteSubgroups);
      return { value: {}, events: this.events.build(realmId, everyone, events) };
    }, requestId);
  }

  /** What each part of the change needs: one of each inner list. */
  private required(caller: AuthUser, changes: Changes): GroupPermissionSettingName[][] {
    const needs: GroupPermissionSettingName[][] = [];
    const self = (ids: number[]) => ids.length === 1 && ids[0] === caller.id;
    if (changes.add.length > 0) needs.push(self(changes.add) ? ['can_join_group', 'can_add_members_group'] : ['can_add_members_group']);
    if (changes.delete.length > 0) needs.push(self(changes.delete) ? ['can_leave_group', 'can_remove_members_group'] : ['can_remove_members_group']);
    if (changes.addSubgroups.length > 0) needs.push(['can_add_members_group']);
    if (changes.deleteSubgroups.length > 0) needs.push(['can_remove_members_group']);
    return needs;
  }
}

const unique = (ids: number[] | undefined): number[] => [...new Set(ids ?? [])];

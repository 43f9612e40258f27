import { Injectable } from '@nestjs/common';
import { GROUP_PERMISSION_SETTING_NAMES, type GroupSettingValue, type UserGroupRecord } from '@teamchat/contracts';
import type { UserGroupModel } from '@teamchat/db';
import type { Transaction } from '../data/transactions';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { badRequest } from '@teamchat/zulip';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { GROUP_PERMISSION_SETTINGS } from './permission-settings';

/** A named group, as the rules about groups read it. */
export type NamedGroup = UserGroupModel & { name: string };

/**
 * User groups as the rules and the API read them: a named group of the caller's organization,
 * and API records, whose `members` are the active direct members (system groups: by role) and
 * each permission setting a group-setting value (the shared membership rule).
 */
@Injectable()
export class UserGroupRecords {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly membership: GroupMembershipRepository,
  ) {}

  /** A named group of the organization (zerver/lib/user_groups.py get_user_group_by_id_in_realm). */
  async named(realmId: number, groupId: number, { allowDeactivated = false } = {}): Promise<NamedGroup> {
    const group = await this.groups.named(realmId, groupId);
    if (!group) throw badRequest('Invalid user group');
    if (group.deactivated && !allowDeactivated) throw badRequest('User group is deactivated.');
    return group as NamedGroup;
  }

  /** The organization's system groups by name (`role:members` → id). */
  systemGroupIds(realmId: number): Promise<Map<string, number>> {
    return this.groups.systemGroupIds(realmId);
  }

  /** The organization's named groups as records, in id order; deactivated ones only when asked. */
  async records(
    realmId: number,
    { includeDeactivated = false, ids }: { includeDeactivated?: boolean; ids?: number[] } = {},
    tx?: Transaction,
  ): Promise<UserGroupRecord[]> {
    const groups = (await this.groups.namedWithSubgroups(realmId, { includeDeactivated, ids }, tx)) as (NamedGroup & { subgroups: { subgroupId: number }[] })[];
    if (groups.length === 0) return [];
    const settingGroupIds = groups.flatMap((group) =>
      GROUP_PERMISSION_SETTING_NAMES.map((name) => group[GROUP_PERMISSION_SETTINGS[name].column]).filter((id): id is number => id !== null),
    );
    const groupIds = groups.map((group) => group.id);
    // In a transaction, one statement after the other on its one connection; outside one, together.
    const [members, values] = tx
      ? [await this.membership.directMembers(groupIds, tx), await this.membership.settingValues(settingGroupIds, tx)]
      : await Promise.all([this.membership.directMembers(groupIds), this.membership.settingValues(settingGroupIds)]);
    return groups.map((group) => ({
      id: group.id,
      name: group.name,
      description: group.description,
      members: members.get(group.id) ?? [],
      direct_subgroup_ids: group.subgroups.map((s) => s.subgroupId),
      creator_id: group.creatorId,
      date_created: Math.floor(group.dateCreated.getTime() / 1000),
      is_system_group: group.isSystemGroup,
      deactivated: group.deactivated,
      ...(Object.fromEntries(
        GROUP_PERMISSION_SETTING_NAMES.map((name) => {
          const id = group[GROUP_PERMISSION_SETTINGS[name].column];
          return [name, id === null ? { direct_members: [], direct_subgroups: [] } : values.get(id)!];
        }),
      ) as Pick<UserGroupRecord, (typeof GROUP_PERMISSION_SETTING_NAMES)[number]>),
    }));
  }

  /** One record (a group just created, changed or reactivated; read through `tx` inside its transaction). */
  async record(realmId: number, groupId: number, tx?: Transaction): Promise<UserGroupRecord> {
    const [record] = await this.records(realmId, { includeDeactivated: true, ids: [groupId] }, tx);
    return record;
  }

  /** The group-setting value of each group a setting points at (the shared rule: GroupMembershipRepository). */
  async settingValues(groupIds: number[], tx?: Transaction): Promise<Map<number, GroupSettingValue>> {
    return this.membership.settingValues(groupIds, tx);
  }
}

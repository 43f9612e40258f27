import { Injectable } from '@nestjs/common';
import {
  PgService,
  groupMembersRecursive,
  groupSettingValues,
  groupsHoldingUser,
  pairsByGroup,
  queryableOf,
  settingValuesOf,
  type SettingValue,
} from '@teamchat/db';
import { groupsNamed } from './groups.readonly.sql';
import type { ColdTx } from './transactions';

export interface NamedGroup {
  id: number;
  name: string;
  deactivated: boolean;
  canMentionGroupId: number | null;
}

/**
 * READ-ONLY view of users-groups' `user_groups` (with `user_group_members`,
 * `user_group_subgroups` and `users`), for mentions, channel and message permissions and
 * channel records. Who is in a group is decided by the one rule users-groups owns, the shared
 * statements of libs/db/src/group-membership.sql.ts (users-groups runs them in
 * GroupMembershipRepository).
 */
@Injectable()
export class GroupsReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The organization's named groups with these names, deactivated ones too. */
  async named(realmId: number, names: string[]): Promise<NamedGroup[]> {
    return names.length === 0 ? [] : this.pg.run(groupsNamed, realmId, names);
  }

  /** Whether the user is in the group (a group-setting value's group, named or anonymous). */
  async isMember(userId: number, groupId: number): Promise<boolean> {
    return (await this.groupsHolding(userId, [groupId])).has(groupId);
  }

  /** Which of these groups hold the user: one query for several permission checks. */
  async groupsHolding(userId: number, groupIds: number[]): Promise<Set<number>> {
    if (groupIds.length === 0) return new Set();
    const rows = await this.pg.run(groupsHoldingUser, [...new Set(groupIds)], userId);
    return new Set(rows.map((row) => row.groupId));
  }

  /** The active users in each group, recursively, in id order. */
  async members(groupIds: number[]): Promise<Map<number, number[]>> {
    return pairsByGroup(groupIds, await this.pg.run(groupMembersRecursive, groupIds));
  }

  /**
   * The group-setting value of each group a setting points at (a named group's id, or an
   * anonymous group's active direct members and direct subgroups); `tx`: a transaction that
   * created some of them.
   */
  async settingValues(groupIds: number[], tx?: ColdTx): Promise<Map<number, SettingValue>> {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return new Map();
    return settingValuesOf(await (tx ? queryableOf(tx) : this.pg).run(groupSettingValues, unique));
  }
}

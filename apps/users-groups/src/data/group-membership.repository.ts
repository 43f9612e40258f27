import { Injectable } from '@nestjs/common';
import {
  PgService,
  groupDirectMembers,
  groupMembersRecursive,
  groupSettingValues,
  groupsDirectlyHoldingUser,
  groupsHoldingUser,
  pairsByGroup,
  settingValuesOf,
  subgroupsRecursive,
  type SettingValue,
} from '@teamchat/db';
import { onConnection, type PgTransaction, type Transaction } from './transactions';

export type { SettingValue } from '@teamchat/db';

/**
 * Who is in a user group (`user_groups`, `user_group_members`, `user_group_subgroups`, which
 * users-groups owns, with `users` for roles): decided by the one rule, the statements of
 * libs/db/src/group-membership.sql.ts (recursively through subgroups, active users only, system
 * groups by role). Messaging reads the same through GroupsReadonlyRepository.
 */
@Injectable()
export class GroupMembershipRepository {
  constructor(private readonly pg: PgService) {}

  /** Whether the user is in the group (a group-setting value's group, named or anonymous). */
  async isMember(userId: number, groupId: number, tx: PgTransaction = this.pg): Promise<boolean> {
    return (await this.groupsHolding(userId, [groupId], tx)).has(groupId);
  }

  /** Which of these groups hold the user: one query for several permission checks. */
  async groupsHolding(userId: number, groupIds: number[], tx: PgTransaction = this.pg): Promise<Set<number>> {
    if (groupIds.length === 0) return new Set();
    const rows = await tx.run(groupsHoldingUser, [...new Set(groupIds)], userId);
    return new Set(rows.map((row) => row.groupId));
  }

  /** The active users in each group, recursively, in id order. */
  async members(groupIds: number[], tx: PgTransaction = this.pg): Promise<Map<number, number[]>> {
    return pairsByGroup(groupIds, await tx.run(groupMembersRecursive, groupIds));
  }

  /**
   * The groups the user is a direct member of now (system groups by role): compare before and
   * after a role change or (re)activation to announce add_members/remove_members.
   */
  async directGroupsOf(userId: number, tx: PgTransaction = this.pg): Promise<number[]> {
    return (await tx.run(groupsDirectlyHoldingUser, userId)).map((row) => row.groupId);
  }

  /** Every group reachable from each group through its subgroups (not the group itself), in id order. */
  async subgroups(groupIds: number[], tx: PgTransaction | Transaction = this.pg): Promise<Map<number, number[]>> {
    const rows = await onConnection(tx).run(subgroupsRecursive, groupIds);
    return pairsByGroup(
      groupIds,
      rows.map((row) => ({ groupId: row.groupId, userId: row.subgroupId })),
    );
  }

  /**
   * The group-setting value of each group a setting points at: a named group's id, or an
   * anonymous group's active direct members and direct subgroups.
   */
  async settingValues(groupIds: number[], tx: PgTransaction | Transaction = this.pg): Promise<Map<number, SettingValue>> {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return new Map();
    return settingValuesOf(await onConnection(tx).run(groupSettingValues, unique));
  }

  /** The active direct members of each group (system groups: by role), in id order. */
  async directMembers(groupIds: number[], tx: PgTransaction | Transaction = this.pg): Promise<Map<number, number[]>> {
    return pairsByGroup(groupIds, await onConnection(tx).run(groupDirectMembers, groupIds));
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, statement, type Queryable } from './pg.service';

/**
 * Who is in a user group: the one rule, for every service that decides a permission by a
 * group-setting value (users-groups for managing groups, messaging for mentions and channel
 * permissions).
 *
 * A user is in a group when they are active and a direct member of the group or of any group
 * reachable through its subgroups. Direct members of user-defined and anonymous groups are
 * stored; those of system groups follow from roles, as Zulip keeps them: role:owners holds the
 * owners, role:administrators the administrators, role:moderators the moderators,
 * role:fullmembers the members past the organization's waiting period, role:members every
 * member, role:everyone the guests (the rest arrive through the nesting created with the
 * organization), and role:internet and role:nobody none.
 */

/** Whether user `u` is a direct member of group `g` (SQL, with `u` a users row, `g` a user_groups row). */
const DIRECT_MEMBER = `(
  CASE WHEN g.is_system_group THEN
    CASE g.name
      WHEN 'role:owners' THEN u.role = 100
      WHEN 'role:administrators' THEN u.role = 200
      WHEN 'role:moderators' THEN u.role = 300
      WHEN 'role:fullmembers' THEN u.role = 400
        AND u.date_joined <= now() - make_interval(days => (SELECT waiting_period_threshold FROM realms WHERE id = g.realm_id))
      WHEN 'role:members' THEN u.role = 400
      WHEN 'role:everyone' THEN u.role = 600
      ELSE false
    END
  ELSE EXISTS (SELECT 1 FROM user_group_members m WHERE m.group_id = g.id AND m.user_id = u.id)
  END)`;

/** Each group of $1 with every group reachable from it through subgroups (itself included). */
const REACHABLE = `reachable(root, id) AS (
    SELECT root, root FROM unnest($1::int[]) AS root
    UNION
    SELECT r.root, s.subgroup_id FROM reachable r JOIN user_group_subgroups s ON s.supergroup_id = r.id
  )`;

/** Which of these groups hold the user (recursively). */
export const groupsHoldingUser = statement<{ groupId: number }, [groupIds: number[], userId: number]>(
  'groups.groups_holding_user',
  `WITH RECURSIVE ${REACHABLE}
   SELECT DISTINCT r.root AS "groupId"
   FROM reachable r JOIN user_groups g ON g.id = r.id JOIN users u ON u.id = $2 AND u.realm_id = g.realm_id
   WHERE u.is_active AND ${DIRECT_MEMBER}`,
);

/** Every active member of each of these groups (recursively), as (group, user) pairs. */
export const groupMembersRecursive = statement<{ groupId: number; userId: number }, [groupIds: number[]]>(
  'groups.members_recursive',
  `WITH RECURSIVE ${REACHABLE}
   SELECT DISTINCT r.root AS "groupId", u.id AS "userId"
   FROM reachable r JOIN user_groups g ON g.id = r.id JOIN users u ON u.realm_id = g.realm_id
   WHERE u.is_active AND ${DIRECT_MEMBER}
   ORDER BY 1, 2`,
);

/** The active direct members of each of these groups, as (group, user) pairs in user order. */
export const groupDirectMembers = statement<{ groupId: number; userId: number }, [groupIds: number[]]>(
  'groups.direct_members',
  `SELECT g.id AS "groupId", u.id AS "userId"
   FROM user_groups g JOIN users u ON u.realm_id = g.realm_id
   WHERE g.id = ANY($1::int[]) AND u.is_active AND ${DIRECT_MEMBER}
   ORDER BY 1, 2`,
);

/** The groups the user is a direct member of (system groups by role), in id order. */
export const groupsDirectlyHoldingUser = statement<{ groupId: number }, [userId: number]>(
  'groups.groups_directly_holding_user',
  `SELECT g.id AS "groupId" FROM users u JOIN user_groups g ON g.realm_id = u.realm_id
   WHERE u.id = $1 AND u.is_active AND ${DIRECT_MEMBER} ORDER BY 1`,
);

/** The groups reachable from each of these groups through subgroups (the group itself left out). */
export const subgroupsRecursive = statement<{ groupId: number; subgroupId: number }, [groupIds: number[]]>(
  'groups.subgroups_recursive',
  `WITH RECURSIVE ${REACHABLE}
   SELECT DISTINCT root AS "groupId", id AS "subgroupId" FROM reachable WHERE id <> root ORDER BY 1, 2`,
);

/** Groups as group-setting values need them: named or not, with their direct subgroups. */
export const groupsWithSubgroups = statement<{ id: number; named: boolean; subgroupIds: number[] }, [groupIds: number[]]>(
  'groups.with_subgroups',
  `SELECT g.id, g.name IS NOT NULL AS named,
     coalesce(ARRAY(SELECT s.subgroup_id FROM user_group_subgroups s WHERE s.supergroup_id = g.id ORDER BY 1), '{}') AS "subgroupIds"
   FROM user_groups g WHERE g.id = ANY($1::int[])`,
);

/** A group-setting value as the API shows it: a named group's id, or an anonymous group's parts. */
export type SettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Decides and lists group membership by the rule above. */
@Injectable()
export class GroupMembership {
  constructor(private readonly pg: PgService) {}

  /** Whether the user is in the group (a group-setting value's group, named or anonymous). */
  async isMember(userId: number, groupId: number, db: Queryable = this.pg): Promise<boolean> {
    return (await this.groupsHolding(userId, [groupId], db)).has(groupId);
  }

  /** Which of these groups hold the user: one query for several permission checks. */
  async groupsHolding(userId: number, groupIds: number[], db: Queryable = this.pg): Promise<Set<number>> {
    if (groupIds.length === 0) return new Set();
    const rows = await db.run(groupsHoldingUser, [...new Set(groupIds)], userId);
    return new Set(rows.map((row) => row.groupId));
  }

  /** The active users in each group, recursively, in id order. */
  async members(groupIds: number[], db: Queryable = this.pg): Promise<Map<number, number[]>> {
    return pairsByGroup(groupIds, await db.run(groupMembersRecursive, groupIds));
  }

  /**
   * The groups the user is a direct member of now (system groups by role): compare before and
   * after a role change or (re)activation to announce add_members/remove_members.
   */
  async directGroupsOf(userId: number, db: Queryable = this.pg): Promise<number[]> {
    return (await db.run(groupsDirectlyHoldingUser, userId)).map((row) => row.groupId);
  }

  /** Every group reachable from each group through its subgroups (not the group itself), in id order. */
  async subgroups(groupIds: number[], db: Queryable = this.pg): Promise<Map<number, number[]>> {
    const rows = await db.run(subgroupsRecursive, groupIds);
    return pairsByGroup(
      groupIds,
      rows.map((row) => ({ groupId: row.groupId, userId: row.subgroupId })),
    );
  }

  /**
   * The group-setting value of each group a setting points at: a named group's id, or an
   * anonymous group's active direct members and direct subgroups.
   */
  async settingValues(groupIds: number[], db: Queryable = this.pg): Promise<Map<number, SettingValue>> {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return new Map();
    const groups = await db.run(groupsWithSubgroups, unique);
    const anonymous = groups.filter((group) => !group.named).map((group) => group.id);
    const members = anonymous.length > 0 ? await this.directMembers(anonymous, db) : new Map<number, number[]>();
    return new Map(
      groups.map((group) => [
        group.id,
        group.named ? group.id : { direct_members: members.get(group.id) ?? [], direct_subgroups: group.subgroupIds },
      ]),
    );
  }

  /** The active direct members of each group (system groups: by role), in id order. */
  async directMembers(groupIds: number[], db: Queryable = this.pg): Promise<Map<number, number[]>> {
    return pairsByGroup(groupIds, await db.run(groupDirectMembers, groupIds));
  }
}

function pairsByGroup(groupIds: number[], rows: { groupId: number; userId: number }[]): Map<number, number[]> {
  const byGroup = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  for (const row of rows) byGroup.get(row.groupId)?.push(row.userId);
  return byGroup;
}

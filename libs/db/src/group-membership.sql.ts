import { statement } from './pg.service';

/**
 * Who is in a user group: the one rule, as SQL. Users-groups owns the groups and decides with it
 * (apps/users-groups/src/data/group-membership.repository.ts: managing groups, membership reads);
 * messaging reads users-groups' tables read-only through the same statements
 * (apps/messaging/src/data/groups.readonly.repository.ts: mentions, channel and message
 * permissions, channel records). The text lives here, in the database library both services
 * share, because a service never imports another's code, and two copies of this rule would drift
 * apart: the library holds only the statements (and how their rows read as maps), each
 * service's repository runs them. Nothing here decides alone: the SQL is the rule.
 *
 * A user is in a group when they are active and a direct member of the group or of any group
 * reachable through its subgroups. Direct members of user-defined and anonymous groups are
 * stored; those of system groups follow from roles, as Zulip keeps them: role:owners holds the
 * owners, role:administrators the administrators, role:moderators the moderators,
 * role:fullmembers the members past the organization's waiting period, role:members every
 * member, role:everyone the guests (the rest arrive through the nesting created with the
 * organization), and role:internet and role:nobody none.
 */

/**
 * Whether user `u` is a direct member of group `g` (SQL, with `u` a users row, `g` a user_groups
 * row). The waiting period counts to the statement's time, not the transaction's start: an
 * account created earlier in the same transaction (date_joined set as it was written) is a full
 * member at once when the organization has no waiting period.
 */
const DIRECT_MEMBER = `(
  CASE WHEN g.is_system_group THEN
    CASE g.name
      WHEN 'role:owners' THEN u.role = 100
      WHEN 'role:administrators' THEN u.role = 200
      WHEN 'role:moderators' THEN u.role = 300
      WHEN 'role:fullmembers' THEN u.role = 400
        AND u.date_joined <= statement_timestamp() - make_interval(days => (SELECT waiting_period_threshold FROM realms WHERE id = g.realm_id))
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

/**
 * Groups as group-setting values need them: named or not, with their direct subgroups and, for
 * an anonymous group, its active direct members (system groups: by role), all in id order.
 */
export const groupSettingValues = statement<
  { id: number; named: boolean; directMembers: number[]; subgroupIds: number[] },
  [groupIds: number[]]
>(
  'groups.setting_values',
  `SELECT g.id, g.name IS NOT NULL AS named,
     CASE WHEN g.name IS NULL
       THEN ARRAY(SELECT u.id FROM users u WHERE u.realm_id = g.realm_id AND u.is_active AND ${DIRECT_MEMBER} ORDER BY 1)
       ELSE '{}'::int[] END AS "directMembers",
     coalesce(ARRAY(SELECT s.subgroup_id FROM user_group_subgroups s WHERE s.supergroup_id = g.id ORDER BY 1), '{}') AS "subgroupIds"
   FROM user_groups g WHERE g.id = ANY($1::int[])`,
);

/** A group-setting value as the API shows it: a named group's id, or an anonymous group's parts. */
export type SettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** The setting values of `groupSettingValues`' rows, by group id. */
export const settingValuesOf = (rows: { id: number; named: boolean; directMembers: number[]; subgroupIds: number[] }[]): Map<number, SettingValue> =>
  new Map(rows.map((row) => [row.id, row.named ? row.id : { direct_members: row.directMembers, direct_subgroups: row.subgroupIds }]));

/** Rows of (group, user) pairs as a map from each of `groupIds` to its users, in row order. */
export function pairsByGroup(groupIds: number[], rows: { groupId: number; userId: number }[]): Map<number, number[]> {
  const byGroup = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  for (const row of rows) byGroup.get(row.groupId)?.push(row.userId);
  return byGroup;
}

import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, isStoredId, statement, type UserGroupModel } from '@teamchat/db';
import { GroupMembershipRepository } from './group-membership.repository';
import { onConnection, type PgTransaction, type Transaction } from './transactions';

/** The organization's system groups (`role:members`…): POST /register reads them every time. */
const systemGroupsOfRealm = statement<{ id: number; name: string }, [realmId: number]>(
  'users_groups.system_groups_of_realm',
  `SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`,
);

/** A named group with its direct subgroups' ids, in id order (Prisma's `include: { subgroups }`). */
export type GroupWithSubgroups = UserGroupModel & { subgroups: { subgroupId: number }[] };

/**
 * The organization's named groups, every column, each with its direct subgroups in id order, in
 * id order: deactivated ones only when $2, only those among $3 unless it is null. One statement
 * for what Prisma read in two (POST /register's `realm_user_groups`).
 */
const namedGroupsWithSubgroups = statement<GroupWithSubgroups, [realmId: number, includeDeactivated: boolean, ids: number[] | null]>(
  'users_groups.named_groups_with_subgroups',
  `SELECT ${columnsOf(Prisma.UserGroupScalarFieldEnum)},
     COALESCE((SELECT json_agg(json_build_object('subgroupId', s.subgroup_id) ORDER BY s.subgroup_id)
               FROM user_group_subgroups s WHERE s.supergroup_id = g.id), '[]'::json) AS subgroups
   FROM user_groups g
   WHERE g.realm_id = $1 AND g.name IS NOT NULL AND ($2::boolean OR NOT g.deactivated) AND ($3::int[] IS NULL OR g.id = ANY($3::int[]))
   ORDER BY g.id`,
);

/** Which of these groups are named (system or user-defined); anonymous groups are setting values. */
const namedGroupIds = statement<{ id: number }, [groupIds: number[]]>(
  'user_admin.named_group_ids',
  `SELECT id FROM user_groups WHERE id = ANY($1::int[]) AND name IS NOT NULL ORDER BY id`,
);

/** The user_groups columns holding a group's permission settings (each a group's id). */
type PermissionColumns = 'canAddMembersGroupId' | 'canJoinGroupId' | 'canLeaveGroupId' | 'canManageGroupId' | 'canMentionGroupId' | 'canRemoveMembersGroupId';

/** What a change to a named group writes. */
export type GroupChanges = Partial<Pick<UserGroupModel, 'name' | 'description' | 'deactivated' | PermissionColumns>>;

/** A new user-made group, with its permission settings' groups by column, its members and subgroups. */
export interface NewGroup {
  realmId: number;
  name: string;
  description: string | undefined;
  creatorId: number;
  settings: Partial<Record<PermissionColumns, number>>;
  members: number[];
  subgroups: number[];
}

/**
 * User groups and their membership: `user_groups`, `user_group_members` (direct members of
 * user-made and anonymous groups), `user_group_subgroups`. Cold paths on Prisma; the named groups
 * with their subgroups (POST /register) on pg. Who is in a group (recursively, system groups by
 * role) is GroupMembershipRepository's rule, on pg.
 */
@Injectable()
export class UserGroupsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
    private readonly membership: GroupMembershipRepository,
  ) {}

  /** A named group of the organization, deactivated or not. */
  async named(realmId: number, groupId: number, tx: Transaction = this.prisma): Promise<UserGroupModel | null> {
    return isStoredId(groupId) ? tx.userGroup.findFirst({ where: { id: groupId, realmId, name: { not: null } } }) : null;
  }

  /** The organization's system groups by name (`role:members` → id). */
  async systemGroupIds(realmId: number): Promise<Map<string, number>> {
    const rows = await this.pg.run(systemGroupsOfRealm, realmId);
    return new Map(rows.map((row) => [row.name, row.id]));
  }

  /** The id of one of the organization's system groups (`role:nobody`, …). */
  async systemGroupId(realmId: number, name: string, tx: Transaction = this.prisma): Promise<number | undefined> {
    return (await tx.userGroup.findFirst({ where: { realmId, name, isSystemGroup: true }, select: { id: true } }))?.id;
  }

  /**
   * The organization's named groups with their direct subgroups, in id order; deactivated ones
   * only when asked. Through pg, one statement (POST /register reads it every time); inside a
   * Prisma transaction, on its connection.
   */
  namedWithSubgroups(
    realmId: number,
    { includeDeactivated = false, ids }: { includeDeactivated?: boolean; ids?: number[] } = {},
    tx?: Transaction,
  ): Promise<GroupWithSubgroups[]> {
    return (tx ? onConnection(tx) : this.pg).run(namedGroupsWithSubgroups, realmId, includeDeactivated, ids ?? null);
  }

  /** The organization's active named groups, in id order. */
  activeNamedOfRealm(realmId: number): Promise<UserGroupModel[]> {
    return this.prisma.userGroup.findMany({ where: { realmId, name: { not: null }, deactivated: false }, orderBy: { id: 'asc' } });
  }

  /** Which of these ids are named groups of the organization, and whether each is deactivated. */
  namedAmong(realmId: number, groupIds: number[], tx: Transaction = this.prisma): Promise<{ id: number; deactivated: boolean }[]> {
    return tx.userGroup.findMany({
      where: { realmId, name: { not: null }, id: { in: groupIds.filter(isStoredId) } },
      select: { id: true, deactivated: true },
    });
  }

  /** Whether another group of the organization (not `exceptId`) has this name. */
  async nameTaken(realmId: number, name: string, exceptId: number | undefined, tx: Transaction): Promise<boolean> {
    const other = await tx.userGroup.findFirst({
      where: { realmId, name, ...(exceptId === undefined ? {} : { id: { not: exceptId } }) },
      select: { id: true },
    });
    return other !== null;
  }

  /** The groups that have this one as a direct subgroup, in id order. */
  async supergroupsOf(groupId: number): Promise<{ id: number; name: string | null; deactivated: boolean }[]> {
    const rows = await this.prisma.userGroupSubgroup.findMany({
      where: { subgroupId: groupId },
      select: { supergroup: { select: { id: true, name: true, deactivated: true } } },
      orderBy: { supergroupId: 'asc' },
    });
    return rows.map((row) => row.supergroup);
  }

  /** The group's direct subgroups, in id order. */
  async directSubgroupIds(groupId: number, tx: Transaction = this.prisma): Promise<number[]> {
    const rows = await tx.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, orderBy: { subgroupId: 'asc' } });
    return rows.map((row) => row.subgroupId);
  }

  /** The group's stored direct members who are active. */
  async activeDirectMemberIds(groupId: number, tx: Transaction): Promise<number[]> {
    const rows = await tx.userGroupMember.findMany({ where: { groupId, user: { isActive: true } }, select: { userId: true } });
    return rows.map((row) => row.userId);
  }

  /** Creates a user-made group with its settings, members and subgroups; its id. */
  async create(group: NewGroup, tx: Transaction): Promise<number> {
    const created = await tx.userGroup.create({
      data: {
        realmId: group.realmId,
        name: group.name,
        description: group.description,
        creatorId: group.creatorId,
        ...group.settings,
        members: { create: group.members.map((userId) => ({ userId })) },
        subgroups: { create: group.subgroups.map((subgroupId) => ({ subgroupId })) },
      },
      select: { id: true },
    });
    return created.id;
  }

  async update(groupId: number, changes: GroupChanges, tx: Transaction = this.prisma): Promise<void> {
    await tx.userGroup.update({ where: { id: groupId }, data: changes });
  }

  /** Adds and removes direct members and subgroups (each list may be empty). */
  async changeParts(
    groupId: number,
    changes: { add: number[]; delete: number[]; addSubgroups: number[]; deleteSubgroups: number[] },
    tx: Transaction,
  ): Promise<void> {
    await tx.userGroupMember.createMany({ data: changes.add.map((userId) => ({ groupId, userId })) });
    await tx.userGroupMember.deleteMany({ where: { groupId, userId: { in: changes.delete } } });
    await tx.userGroupSubgroup.createMany({ data: changes.addSubgroups.map((subgroupId) => ({ supergroupId: groupId, subgroupId })) });
    await tx.userGroupSubgroup.deleteMany({ where: { supergroupId: groupId, subgroupId: { in: changes.deleteSubgroups } } });
  }

  // ---- anonymous groups (the values of permission settings) ----

  /** Whether this group exists and is anonymous (no name). */
  async isAnonymous(groupId: number, tx: Transaction): Promise<boolean> {
    const group = await tx.userGroup.findUnique({ where: { id: groupId }, select: { id: true, name: true } });
    return group !== null && group.name === null;
  }

  async createAnonymous(realmId: number, tx: Transaction): Promise<number> {
    return (await tx.userGroup.create({ data: { realmId }, select: { id: true } })).id;
  }

  /** Makes these the group's only direct members and subgroups. */
  async replaceParts(groupId: number, members: number[], subgroups: number[], tx: Transaction): Promise<void> {
    await tx.userGroupMember.deleteMany({ where: { groupId } });
    await tx.userGroupSubgroup.deleteMany({ where: { supergroupId: groupId } });
    await tx.userGroupMember.createMany({ data: members.map((userId) => ({ groupId, userId })) });
    await tx.userGroupSubgroup.createMany({ data: subgroups.map((subgroupId) => ({ supergroupId: groupId, subgroupId })) });
  }

  /** Deletes the group if it is anonymous (a named group is never deleted). */
  async deleteIfAnonymous(groupId: number, tx: Transaction): Promise<void> {
    await tx.userGroup.deleteMany({ where: { id: groupId, name: null } });
  }

  // ---- membership that follows from roles (user administration, pg) ----

  /**
   * The named groups (system and user-defined) the user is a direct member of now. System
   * groups' members follow from role and being active, so a role change or a (re)activation
   * moves the user between groups by itself: read this before and after the change, in its
   * transaction, and announce the difference. Anonymous groups (permission settings' values)
   * are left out: Zulip announces those as setting updates, not membership.
   */
  async directNamedGroupsOf(userId: number, tx: PgTransaction = this.pg): Promise<number[]> {
    const direct = await this.membership.directGroupsOf(userId, tx);
    if (direct.length === 0) return [];
    return (await tx.run(namedGroupIds, direct)).map((row) => row.id);
  }
}

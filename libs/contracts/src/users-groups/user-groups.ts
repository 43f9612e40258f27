import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

/**
 * A group-setting value (Zulip's GroupSettingValue): a named user group's id, or an anonymous
 * group given by its members and subgroups.
 */
export const groupSettingValueSchema = apiSchema(
  'GroupSettingValue',
  z.union([
    int(),
    z.object({
      direct_members: z.array(int()),
      direct_subgroups: z.array(int()),
    }),
  ]),
);
export type GroupSettingValue = z.output<typeof groupSettingValueSchema>;

/** The six permission settings of a named user group, in Zulip's order. */
export const GROUP_PERMISSION_SETTING_NAMES = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupPermissionSettingName = (typeof GROUP_PERMISSION_SETTING_NAMES)[number];

/** One entry per group-based setting (a group's, a channel's), each made by `make`. */
export const perSettingOf = <N extends string, S>(names: readonly N[], make: () => S) =>
  Object.fromEntries(names.map((name) => [name, make()])) as Record<N, S>;

/** A named user group as GET /user_groups lists it (and `realm_user_groups`, and `user_group` add events). */
export const userGroupSchema = apiSchema(
  'UserGroup',
  z.object({
    id: int(),
    name: z.string(),
    description: z.string(),
    /** Direct members, deactivated users left out. */
    members: z.array(int()),
    direct_subgroup_ids: z.array(int()),
    creator_id: int().nullable(),
    date_created: int().nullable(),
    is_system_group: z.boolean(),
    deactivated: z.boolean(),
    ...perSettingOf(GROUP_PERMISSION_SETTING_NAMES, () => groupSettingValueSchema),
  }),
);
export type UserGroupRecord = z.output<typeof userGroupSchema>;

/** A setting's new value, with the value the caller believes it has now (Zulip's GroupSettingValueUpdate). */
export const groupSettingChangeSchema = z.object({ new: groupSettingValueSchema, old: groupSettingValueSchema.optional() });
export type GroupSettingChange = z.output<typeof groupSettingChangeSchema>;

const perSetting = <S>(make: () => S) => perSettingOf(GROUP_PERMISSION_SETTING_NAMES, make);

export const createUserGroupParams = {
  name: param.string(),
  description: param.string(),
  members: param.intList(),
  subgroups: param.intList().optional(),
  ...perSetting(() => param.json(groupSettingValueSchema).optional()),
};

export const createUserGroup = defineApiCommand('users-groups', 'create_user_group', {
  route: 'POST /user_groups/create',
  summary: 'Creates a user group; answers its id.',
  params: createUserGroupParams,
  response: z.object({ group_id: int() }),
});

export const listUserGroupsParams = {
  include_deactivated_groups: param.bool().default(false),
};

export const listUserGroups = defineApiCommand('users-groups', 'list_user_groups', {
  route: 'GET /user_groups',
  summary: "The organization's named user groups, system groups included.",
  params: listUserGroupsParams,
  response: z.object({ user_groups: z.array(userGroupSchema) }),
});

const groupPath = { user_group_id: param.int() };

export const updateUserGroupParams = {
  ...groupPath,
  name: param.string().optional(),
  description: param.string().optional(),
  deactivated: param.bool().optional(),
  ...perSetting(() => param.json(groupSettingChangeSchema).optional()),
};

export const updateUserGroup = defineApiCommand('users-groups', 'update_user_group', {
  route: 'PATCH /user_groups/{user_group_id}',
  summary: "Changes a group's name, description or permission settings, or reactivates it.",
  params: updateUserGroupParams,
  response: emptyResponse,
});

export const deactivateUserGroupParams = groupPath;

export const deactivateUserGroup = defineApiCommand('users-groups', 'deactivate_user_group', {
  route: 'POST /user_groups/{user_group_id}/deactivate',
  summary: 'Deactivates a user group that no group, channel or organization setting uses.',
  params: deactivateUserGroupParams,
  response: emptyResponse,
});

export const updateUserGroupMembersParams = {
  ...groupPath,
  add: param.intList().optional(),
  delete: param.intList().optional(),
  add_subgroups: param.intList().optional(),
  delete_subgroups: param.intList().optional(),
};

export const updateUserGroupMembers = defineApiCommand('users-groups', 'update_user_group_members', {
  route: 'POST /user_groups/{user_group_id}/members',
  summary: "Adds and removes a group's members (and subgroups).",
  params: updateUserGroupMembersParams,
  response: emptyResponse,
});

export const updateUserGroupSubgroupsParams = {
  ...groupPath,
  add: param.intList().optional(),
  delete: param.intList().optional(),
};

export const updateUserGroupSubgroups = defineApiCommand('users-groups', 'update_user_group_subgroups', {
  route: 'POST /user_groups/{user_group_id}/subgroups',
  summary: "Adds and removes a group's subgroups (never making a cycle).",
  params: updateUserGroupSubgroupsParams,
  response: emptyResponse,
});

export const getUserGroupMembersParams = {
  ...groupPath,
  direct_member_only: param.bool().default(false),
};

export const getUserGroupMembers = defineApiCommand('users-groups', 'get_user_group_members', {
  route: 'GET /user_groups/{user_group_id}/members',
  summary: "A group's members, through its subgroups unless direct_member_only.",
  params: getUserGroupMembersParams,
  response: z.object({ members: z.array(int()) }),
});

export const getIsUserGroupMemberParams = {
  ...groupPath,
  user_id: param.int(),
  direct_member_only: param.bool().default(false),
};

export const getIsUserGroupMember = defineApiCommand('users-groups', 'get_is_user_group_member', {
  route: 'GET /user_groups/{user_group_id}/members/{user_id}',
  summary: 'Whether a user is in a group.',
  params: getIsUserGroupMemberParams,
  response: z.object({ is_user_group_member: z.boolean() }),
});

export const getUserGroupSubgroupsParams = {
  ...groupPath,
  direct_subgroup_only: param.bool().default(false),
};

export const getUserGroupSubgroups = defineApiCommand('users-groups', 'get_user_group_subgroups', {
  route: 'GET /user_groups/{user_group_id}/subgroups',
  summary: "A group's subgroups, recursively unless direct_subgroup_only.",
  params: getUserGroupSubgroupsParams,
  response: z.object({ subgroups: z.array(int()) }),
});

/**
 * Internal, from messaging (a channel's permission settings): the group that will hold a
 * setting with this value — a named group checked against the restrictions, or an anonymous
 * group users-groups stores (the setting's current one rewritten, when it is anonymous).
 * `old`, when given, must be the current value (EXPECTATION_MISMATCH).
 */
export const resolveGroupSetting = defineCommand<
  {
    realmId: number;
    setting: string;
    restrictions: { allowEveryone: boolean; allowNobody: boolean; allowOwners: boolean };
    change: GroupSettingChange;
    current: number | null;
  },
  { groupId: number }
>(
  'users-groups',
  'resolve_group_setting',
  z.object({
    realmId: z.number().int(),
    setting: z.string(),
    restrictions: z.object({ allowEveryone: z.boolean(), allowNobody: z.boolean(), allowOwners: z.boolean() }),
    change: groupSettingChangeSchema,
    current: z.number().int().nullable(),
  }),
);

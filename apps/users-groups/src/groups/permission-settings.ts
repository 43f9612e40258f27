import { UsersGroups, type GroupPermissionSettingName } from '@teamchat/contracts';
import type { RealmModel } from '@teamchat/db';

/**
 * How each permission setting of a named group behaves (Zulip's GROUP_PERMISSION_SETTINGS):
 * which system groups it may not hold, and its value for a new group. No setting may be
 * role:internet. A setting that may not be role:everyone is never granted to guests, whatever
 * group holds it.
 */
export interface PermissionSettingConfig {
  /** The user_groups column holding the setting's group. */
  column:
    | 'canAddMembersGroupId'
    | 'canJoinGroupId'
    | 'canLeaveGroupId'
    | 'canManageGroupId'
    | 'canMentionGroupId'
    | 'canRemoveMembersGroupId';
  allowEveryone: boolean;
  allowNobody: boolean;
  /** The interface's rule: can_mention_group may not be role:owners. */
  allowOwners: boolean;
  /** A new group's value: its creator alone (an anonymous group), or a system group. */
  default: 'creator' | 'role:nobody' | 'role:everyone';
}

export const GROUP_PERMISSION_SETTINGS: Record<GroupPermissionSettingName, PermissionSettingConfig> = {
  can_add_members_group: { column: 'canAddMembersGroupId', allowEveryone: false, allowNobody: true, allowOwners: true, default: 'creator' },
  can_join_group: { column: 'canJoinGroupId', allowEveryone: false, allowNobody: true, allowOwners: true, default: 'role:nobody' },
  can_leave_group: { column: 'canLeaveGroupId', allowEveryone: true, allowNobody: true, allowOwners: true, default: 'role:everyone' },
  can_manage_group: { column: 'canManageGroupId', allowEveryone: false, allowNobody: true, allowOwners: true, default: 'creator' },
  can_mention_group: { column: 'canMentionGroupId', allowEveryone: true, allowNobody: true, allowOwners: false, default: 'role:everyone' },
  can_remove_members_group: { column: 'canRemoveMembersGroupId', allowEveryone: false, allowNobody: true, allowOwners: true, default: 'role:nobody' },
};

/** A `realms` column holding a group's id. */
export type RealmGroupColumn = { [K in keyof RealmModel]: RealmModel[K] extends number | null ? K : never }[keyof RealmModel];

/**
 * The organization's group-based permissions (every one of Zulip's, from the realm settings
 * catalogue), by the realms column holding each (named as Zulip names them in POST /register,
 * without the `realm_` prefix). A group used by one cannot be deactivated. An unset column
 * (null) is the setting's default system group.
 */
export const REALM_PERMISSION_SETTINGS = Object.fromEntries(
  UsersGroups.REALM_GROUP_SETTING_NAMES.map((name) => {
    const def = UsersGroups.REALM_SETTINGS[name];
    return [name, { column: def.column as RealmGroupColumn, allowEveryone: def.allowEveryone, defaultGroup: def.defaultGroup }];
  }),
) as Record<UsersGroups.RealmGroupSettingName, { column: RealmGroupColumn; allowEveryone: boolean; defaultGroup: string }>;

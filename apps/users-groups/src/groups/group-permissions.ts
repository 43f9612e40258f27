import { Injectable } from '@nestjs/common';
import type { AuthUser, GroupPermissionSettingName } from '@teamchat/contracts';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { badRequest, isGuestRole } from '@teamchat/zulip';
import { GROUP_PERMISSION_SETTINGS, REALM_PERMISSION_SETTINGS } from './permission-settings';
import { OrganizationsRepository } from '../data/organizations.repository';
import { UserGroupRecords, type NamedGroup } from './user-group-records';

const insufficient = () => badRequest('Insufficient permission');

/**
 * Who may do what to a user group (zerver/lib/user_groups.py access_user_group_for_update): an
 * organization-wide can_manage_all_groups or the group's can_manage_group allows everything;
 * otherwise the setting for the action (can_join_group to add oneself, can_add_members_group
 * to add others, can_leave_group, can_remove_members_group). System groups change only with
 * roles. Membership of a setting's group is decided by GroupMembershipRepository; a guest never holds a
 * permission whose setting may not be role:everyone.
 */
@Injectable()
export class GroupPermissions {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly membership: GroupMembershipRepository,
    private readonly store: UserGroupRecords,
  ) {}

  /**
   * The group, if the caller may act on it: managing it allows everything; otherwise each entry
   * of `needs` must be allowed by one of its settings (a single setting for a single action).
   * "Insufficient permission" otherwise. One membership query, whatever the needs.
   */
  async forUpdate(
    caller: AuthUser,
    groupId: number,
    needs: GroupPermissionSettingName | GroupPermissionSettingName[][],
    { allowDeactivated = false } = {},
  ): Promise<NamedGroup> {
    const group = await this.store.named(caller.realmId, groupId, { allowDeactivated });
    if (group.isSystemGroup) throw insufficient();
    const anyOf = typeof needs === 'string' ? [[needs]] : needs;
    const realm = await this.organizations.groupManagement(caller.realmId);
    const manage = [
      { groupId: realm.canManageAllGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_manage_all_groups.allowEveryone },
      this.setting(group, 'can_manage_group'),
    ];
    const each = anyOf.map((names) => names.map((name) => this.setting(group, name)));
    const held = await this.held(caller, [...manage, ...each.flat()]);
    const holds = (settings: Setting[]) => settings.some((setting) => setting.groupId !== null && held.has(setting.groupId) && this.open(caller, setting));
    if (!holds(manage) && !each.every(holds)) throw insufficient();
    return group;
  }

  /** Whether the caller may create user groups (the organization's can_create_groups, or can_manage_all_groups). */
  async checkMayCreate(caller: AuthUser): Promise<void> {
    const realm = await this.organizations.groupManagement(caller.realmId);
    const allowed = await this.holdsAny(caller, [
      { groupId: realm.canCreateGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_create_groups.allowEveryone },
      { groupId: realm.canManageAllGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_manage_all_groups.allowEveryone },
    ]);
    if (!allowed) throw insufficient();
  }

  /** Whether the caller holds any of these settings' permissions: one membership query. */
  private async holdsAny(caller: AuthUser, settings: Setting[]): Promise<boolean> {
    const held = await this.held(caller, settings);
    return settings.some((setting) => setting.groupId !== null && held.has(setting.groupId) && this.open(caller, setting));
  }

  /** Which of these settings' groups hold the caller. */
  private held(caller: AuthUser, settings: Setting[]): Promise<Set<number>> {
    const ids = settings.filter((setting) => this.open(caller, setting)).flatMap((setting) => (setting.groupId === null ? [] : [setting.groupId]));
    return this.membership.groupsHolding(caller.id, ids);
  }

  /** A guest never holds a permission whose setting may not be role:everyone. */
  private open(caller: AuthUser, setting: Setting): boolean {
    return setting.allowEveryone || !isGuestRole(caller.role);
  }

  private setting(group: NamedGroup, name: GroupPermissionSettingName): Setting {
    return { groupId: group[GROUP_PERMISSION_SETTINGS[name].column], allowEveryone: GROUP_PERMISSION_SETTINGS[name].allowEveryone };
  }
}

interface Setting {
  groupId: number | null;
  allowEveryone: boolean;
}

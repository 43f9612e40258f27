import { Injectable } from '@nestjs/common';
import type { AuthUser, GroupPermissionSettingName } from '@teamchat/contracts';
import { GroupMembership, PrismaService } from '@teamchat/db';
import { badRequest, isGuestRole } from '@teamchat/zulip';
import { GROUP_PERMISSION_SETTINGS, REALM_PERMISSION_SETTINGS } from './permission-settings';
import { UserGroupStore, type NamedGroup } from './user-group-store';

const insufficient = () => badRequest('Insufficient permission');

/**
 * Who may do what to a user group (zerver/lib/user_groups.py access_user_group_for_update): an
 * organization-wide can_manage_all_groups or the group's can_manage_group allows everything;
 * otherwise the setting for the action (can_join_group to add oneself, can_add_members_group
 * to add others, can_leave_group, can_remove_members_group). System groups change only with
 * roles. Membership of a setting's group is decided by GroupMembership; a guest never holds a
 * permission whose setting may not be role:everyone.
 */
@Injectable()
export class GroupPermissions {
  constructor(
    private readonly prisma: PrismaService,
    private readonly membership: GroupMembership,
    private readonly store: UserGroupStore,
  ) {}

  /** The group, if the caller may act on it by `permission` (or manage it); "Insufficient permission" otherwise. */
  async forUpdate(
    caller: AuthUser,
    groupId: number,
    permission: GroupPermissionSettingName | GroupPermissionSettingName[],
    { allowDeactivated = false } = {},
  ): Promise<NamedGroup> {
    const group = await this.store.named(caller.realmId, groupId, { allowDeactivated });
    if (group.isSystemGroup) throw insufficient();
    const permissions = Array.isArray(permission) ? permission : [permission];
    const realm = await this.prisma.realm.findUniqueOrThrow({ where: { id: caller.realmId }, select: { canManageAllGroupsId: true } });
    const candidates: { groupId: number | null; allowEveryone: boolean }[] = [
      { groupId: realm.canManageAllGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_manage_all_groups.allowEveryone },
      ...(['can_manage_group', ...permissions] as GroupPermissionSettingName[]).map((name) => ({
        groupId: group[GROUP_PERMISSION_SETTINGS[name].column],
        allowEveryone: GROUP_PERMISSION_SETTINGS[name].allowEveryone,
      })),
    ];
    if (!(await this.holdsAny(caller, candidates))) throw insufficient();
    return group;
  }

  /** Whether the caller may create user groups (the organization's can_create_groups, or can_manage_all_groups). */
  async checkMayCreate(caller: AuthUser): Promise<void> {
    const realm = await this.prisma.realm.findUniqueOrThrow({
      where: { id: caller.realmId },
      select: { canCreateGroupsId: true, canManageAllGroupsId: true },
    });
    const allowed = await this.holdsAny(caller, [
      { groupId: realm.canCreateGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_create_groups.allowEveryone },
      { groupId: realm.canManageAllGroupsId, allowEveryone: REALM_PERMISSION_SETTINGS.can_manage_all_groups.allowEveryone },
    ]);
    if (!allowed) throw insufficient();
  }

  /** Whether the caller holds any of these settings' permissions: one membership query. */
  private async holdsAny(caller: AuthUser, settings: { groupId: number | null; allowEveryone: boolean }[]): Promise<boolean> {
    const open = settings.filter(
      (setting): setting is { groupId: number; allowEveryone: boolean } =>
        setting.groupId !== null && (setting.allowEveryone || !isGuestRole(caller.role)),
    );
    const held = await this.membership.groupsHolding(
      caller.id,
      open.map((setting) => setting.groupId),
    );
    return held.size > 0;
  }
}

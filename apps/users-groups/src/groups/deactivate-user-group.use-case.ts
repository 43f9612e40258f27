import { Injectable } from '@nestjs/common';
import { GROUP_PERMISSION_SETTING_NAMES, type UserCommand, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { ZulipError, type DecodedParams } from '@teamchat/zulip';
import { OrganizationsRepository } from '../data/organizations.repository';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { GroupPermissions } from './group-permissions';
import { GROUP_PERMISSION_SETTINGS, REALM_PERMISSION_SETTINGS } from './permission-settings';
import { UserGroupEvents } from './user-group-events';

type Params = DecodedParams<typeof UsersGroups.deactivateUserGroupParams>;
type Objection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

/**
 * POST /user_groups/{id}/deactivate (zerver/lib/user_groups.py access_user_group_for_deactivation):
 * for those who may manage the group, and only while nothing uses it — no active group has it
 * as a subgroup, and no group or organization permission holds it, directly or inside an
 * anonymous value (CANNOT_DEACTIVATE_GROUP_IN_USE with the objections).
 */
@Injectable()
export class DeactivateUserGroup {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly permissions: GroupPermissions,
    private readonly events: UserGroupEvents,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const group = await this.permissions.forUpdate(user, params.user_group_id, 'can_manage_group');
    const objections = await this.objections(realm.id, group.id);
    if (objections.length > 0) throw new ZulipError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', { objections });
    const everyone = await this.events.audience(realm.id);
    return this.outbox.runCold(async (tx) => {
      await this.groups.update(group.id, { deactivated: true }, tx);
      return {
        value: {},
        events: this.events.build(realm.id, everyone, [{ event: { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } } }]),
      };
    }, requestId);
  }

  private async objections(realmId: number, groupId: number): Promise<Objection[]> {
    const supergroups = await this.groups.supergroupsOf(groupId);
    const objections: Objection[] = [];
    const named = supergroups.filter((s) => s.name !== null && !s.deactivated).map((s) => s.id);
    if (named.length > 0) objections.push({ type: 'subgroup', supergroup_ids: named });

    // The group holds a setting directly, or as a subgroup of an anonymous value.
    const holders = new Set([groupId, ...supergroups.filter((s) => s.name === null).map((s) => s.id)]);
    const groups = await this.groups.activeNamedOfRealm(realmId);
    for (const other of groups) {
      const settings = GROUP_PERMISSION_SETTING_NAMES.filter((name) => holders.has(other[GROUP_PERMISSION_SETTINGS[name].column] ?? -1));
      if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
    }
    const realm = await this.organizations.byIdOrThrow(realmId);
    const realmSettings = Object.entries(REALM_PERMISSION_SETTINGS)
      .filter(([, config]) => holders.has(realm[config.column] ?? -1))
      .map(([name]) => name);
    if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings });
    return objections;
  }
}

import { Injectable } from '@nestjs/common';
import type { UsersGroups } from '@teamchat/contracts';
import { OrganizationsRepository } from '../data/organizations.repository';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { settingGroupId } from './realm-setting-values';

/**
 * The group that holds one of the organization's group-valued settings (PATCH /realm's
 * catalogue): its stored group, or its default system group when unset. What every feature a
 * setting governs asks (custom emoji, bots, invitations), so each reads the stored setting.
 */
@Injectable()
export class RealmGroupSettings {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly groups: UserGroupsRepository,
  ) {}

  async groupIds<N extends UsersGroups.RealmGroupSettingName>(realmId: number, names: readonly N[]): Promise<Record<N, number>> {
    const [realm, systemGroups] = await Promise.all([this.organizations.byIdOrThrow(realmId), this.groups.systemGroupIds(realmId)]);
    return Object.fromEntries(names.map((name) => [name, settingGroupId(realm, name, systemGroups)])) as Record<N, number>;
  }
}

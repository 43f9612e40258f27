import { Injectable } from '@nestjs/common';
import type { GroupPermissionSettingName, GroupSettingValue } from '@teamchat/contracts';
import { ZulipError, badRequest } from '@teamchat/zulip';
import type { Transaction as Tx } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { GroupParts } from './group-parts';
import { GROUP_PERMISSION_SETTINGS } from './permission-settings';
import { UserGroupRecords } from './user-group-records';

/** The system groups a setting may not hold (role:internet never). */
export interface SettingRestrictions {
  allowEveryone: boolean;
  allowNobody: boolean;
  allowOwners: boolean;
  /** Only a system group (an organization setting such as can_access_all_users_group). */
  requireSystemGroup?: boolean;
  /** When not empty: the only system groups allowed. */
  allowedSystemGroups?: string[];
}

/**
 * Group-setting values in and out (Zulip's api_docs/group-setting-values.md): a value names a
 * group, or is made of users and groups and stored as an anonymous group. An object of one
 * subgroup and no members is that group, and an empty one is role:nobody, as Zulip stores them.
 */
@Injectable()
export class GroupSettingValues {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly parts: GroupParts,
    private readonly store: UserGroupRecords,
  ) {}

  /**
   * The id of the group that will hold `setting` with this value: a named group (checked
   * against the setting's restrictions), or an anonymous group — the setting's current one,
   * rewritten, when it has one (`current`), else a new one.
   */
  async resolve(tx: Tx, realmId: number, setting: GroupPermissionSettingName, value: GroupSettingValue, current: number | null): Promise<number> {
    return this.resolveFor(tx, realmId, setting, GROUP_PERMISSION_SETTINGS[setting], value, current);
  }

  /** `resolve` for any setting (a group's, a channel's), given the system groups it refuses. */
  async resolveFor(
    tx: Tx,
    realmId: number,
    setting: string,
    config: SettingRestrictions,
    value: GroupSettingValue,
    current: number | null,
  ): Promise<number> {
    const named = await this.namedForm(realmId, value, tx);
    if (named !== undefined) return this.checkNamed(tx, realmId, setting, config, named);

    if (config.requireSystemGroup) throw badRequest(`'${setting}' must be a system user group.`);
    const { direct_members: memberIds, direct_subgroups: subgroupIds } = value as Exclude<GroupSettingValue, number>;
    const members = [...new Set(memberIds)];
    const subgroups = [...new Set(subgroupIds)];
    await this.parts.checkActiveUsers(realmId, members, tx);
    await this.parts.checkSubgroups(realmId, subgroups, tx);

    const groupId = current !== null && (await this.groups.isAnonymous(current, tx)) ? current : await this.groups.createAnonymous(realmId, tx);
    await this.groups.replaceParts(groupId, members, subgroups, tx);
    return groupId;
  }

  /** Removes an anonymous group no setting points at any more (the value it held was replaced). */
  async dropIfAnonymous(tx: Tx, groupId: number | null, keep: number): Promise<void> {
    if (groupId === null || groupId === keep) return;
    await this.groups.deleteIfAnonymous(groupId, tx);
  }

  /** EXPECTATION_MISMATCH unless the setting's current value is `expected` (compared in canonical form). */
  async checkCurrent(realmId: number, current: number | null, expected: GroupSettingValue, tx?: Tx): Promise<void> {
    if (!(await this.isCurrent(realmId, current, expected, tx))) {
      throw new ZulipError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    }
  }

  /** Whether `value` is the setting's current value (the group `current` holds), compared in canonical form. */
  async isCurrent(realmId: number, current: number | null, value: GroupSettingValue, tx?: Tx): Promise<boolean> {
    // In a transaction (`tx`), one read after the other on its connection.
    const currentValue = current === null ? undefined : (await this.store.settingValues([current], tx)).get(current);
    const named = await this.namedForm(realmId, value, tx);
    return sameValue(currentValue, named ?? value);
  }

  /** The named group a value stands for, if it stands for one: an id, one lone subgroup, or nobody. */
  private async namedForm(realmId: number, value: GroupSettingValue, tx?: Tx): Promise<number | undefined> {
    if (typeof value === 'number') return value;
    const members = new Set(value.direct_members);
    const subgroups = new Set(value.direct_subgroups);
    if (members.size === 0 && subgroups.size === 1) return [...subgroups][0];
    if (members.size === 0 && subgroups.size === 0) {
      return (await this.groups.systemGroupId(realmId, 'role:nobody', tx))!;
    }
    return undefined;
  }

  /** A named group may hold the setting: it exists here, is active, and is not a system group the setting refuses. */
  private async checkNamed(db: Tx, realmId: number, setting: string, config: SettingRestrictions, groupId: number): Promise<number> {
    const group = await this.groups.named(realmId, groupId, db);
    if (!group) throw badRequest('Invalid user group');
    if (group.deactivated) throw badRequest('User group is deactivated.');
    if (config.requireSystemGroup && !group.isSystemGroup) throw badRequest(`'${setting}' must be a system user group.`);
    const refused =
      group.isSystemGroup &&
      (group.name === 'role:internet' ||
        (group.name === 'role:everyone' && !config.allowEveryone) ||
        (group.name === 'role:nobody' && !config.allowNobody) ||
        (group.name === 'role:owners' && !config.allowOwners) ||
        (config.allowedSystemGroups !== undefined && config.allowedSystemGroups.length > 0 && !config.allowedSystemGroups.includes(group.name!)));
    if (refused) throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    return group.id;
  }
}

function sameValue(a: GroupSettingValue | undefined, b: GroupSettingValue): boolean {
  if (a === undefined) return false;
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sameSet = (x: number[], y: number[]) => x.length === new Set(y).size && x.every((id) => y.includes(id));
  return sameSet([...new Set(a.direct_members)], b.direct_members) && sameSet([...new Set(a.direct_subgroups)], b.direct_subgroups);
}

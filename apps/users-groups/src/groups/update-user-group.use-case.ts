import { Injectable } from '@nestjs/common';
import { GROUP_PERMISSION_SETTING_NAMES, type UserCommand, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { UserGroupsRepository, type GroupChanges } from '../data/user-groups.repository';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { checkGroupName, nameTaken } from './group-names';
import { GroupPermissions } from './group-permissions';
import { GroupSettingValues } from './group-setting-values';
import { GROUP_PERMISSION_SETTINGS } from './permission-settings';
import { UserGroupEvents, type UserGroupEvent } from './user-group-events';
import { UserGroupRecords } from './user-group-records';

type Params = DecodedParams<typeof UsersGroups.updateUserGroupParams>;

/**
 * PATCH /user_groups/{id} (zerver/views/user_groups.py edit_user_group): name, description and
 * permission settings, for those who may manage the group, deactivated or not; `deactivated=false`
 * reactivates (true changes nothing). A setting's `old`, when given, must be its current value
 * (EXPECTATION_MISMATCH), checked before anything changes. One `update` event per property.
 */
@Injectable()
export class UpdateUserGroup {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly outbox: EventOutbox,
    private readonly permissions: GroupPermissions,
    private readonly values: GroupSettingValues,
    private readonly store: UserGroupRecords,
    private readonly events: UserGroupEvents,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const settingChanges = GROUP_PERMISSION_SETTING_NAMES.filter((name) => params[name] !== undefined);
    if (params.name === undefined && params.description === undefined && params.deactivated === undefined && settingChanges.length === 0) {
      throw badRequest('No new data supplied');
    }
    const group = await this.permissions.forUpdate(user, params.user_group_id, 'can_manage_group', { allowDeactivated: true });
    const name = params.name !== undefined && params.name !== group.name ? checkGroupName(params.name) : undefined;
    for (const setting of settingChanges) {
      const old = params[setting]!.old;
      if (old !== undefined) await this.values.checkCurrent(realm.id, group[GROUP_PERMISSION_SETTINGS[setting].column], old);
    }

    const everyone = await this.events.audience(realm.id);
    return this.outbox.runCold(async (tx) => {
      const changed: { property: string; settingId?: number }[] = [];
      if (name !== undefined) {
        if (await this.groups.nameTaken(realm.id, name, group.id, tx)) throw nameTaken(name);
        await this.groups.update(group.id, { name }, tx);
        changed.push({ property: 'name' });
      }
      if (params.description !== undefined && params.description !== group.description) {
        await this.groups.update(group.id, { description: params.description }, tx);
        changed.push({ property: 'description' });
      }
      for (const setting of settingChanges) {
        const column = GROUP_PERMISSION_SETTINGS[setting].column;
        const current = group[column];
        const next = await this.values.resolve(tx, realm.id, setting, params[setting]!.new, current);
        if (next !== current) {
          await this.groups.update(group.id, { [column]: next } as GroupChanges, tx);
          await this.values.dropIfAnonymous(tx, current, next);
        }
        // An anonymous value rewritten in place keeps its id but is still a change.
        changed.push({ property: setting, settingId: next });
      }
      if (params.deactivated === false && group.deactivated) {
        await this.groups.update(group.id, { deactivated: false }, tx);
        changed.push({ property: 'deactivated' });
      }

      const record = changed.length > 0 ? await this.store.record(realm.id, group.id, tx) : undefined;
      const events: UserGroupEvent[] = changed.map(({ property }) => ({
        event: { type: 'user_group', op: 'update', group_id: group.id, data: { [property]: record![property as keyof typeof record] } },
        ...(property === 'deactivated' ? { group: record } : {}),
      }));
      return { value: {}, events: this.events.build(realm.id, everyone, events) };
    }, requestId);
  }
}

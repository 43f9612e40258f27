import { Injectable } from '@nestjs/common';
import { GROUP_PERMISSION_SETTING_NAMES, type UserCommand, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { checkGroupName, nameTaken } from './group-names';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { GroupParts } from './group-parts';
import { GroupPermissions } from './group-permissions';
import { GroupSettingValues } from './group-setting-values';
import { GROUP_PERMISSION_SETTINGS } from './permission-settings';
import { UserGroupEvents } from './user-group-events';
import { UserGroupRecords } from './user-group-records';

type Params = DecodedParams<typeof UsersGroups.createUserGroupParams>;

/**
 * POST /user_groups/create (zerver/views/user_groups.py add_user_group): for those the
 * organization's can_create_groups allows. Members must be active users of the organization;
 * subgroups may always be added by the creator. Unset permissions take Zulip's defaults (the
 * creator alone may manage the group and add members; everyone may leave and mention it).
 */
@Injectable()
export class CreateUserGroup {
  constructor(
    private readonly groups: UserGroupsRepository,
    private readonly parts: GroupParts,
    private readonly outbox: EventOutbox,
    private readonly permissions: GroupPermissions,
    private readonly values: GroupSettingValues,
    private readonly store: UserGroupRecords,
    private readonly events: UserGroupEvents,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ group_id: number }> {
    const caller = user;
    await this.permissions.checkMayCreate(caller);
    const name = checkGroupName(params.name);
    const members = [...new Set(params.members)];
    const subgroups = [...new Set(params.subgroups ?? [])];

    // Read before the transaction: a read on the pool inside it would wait for a second
    // connection while holding one (with the pool taken by such transactions, none comes).
    const system = await this.store.systemGroupIds(realm.id);
    const everyone = await this.events.audience(realm.id);
    return this.outbox.runCold(async (tx) => {
      await this.parts.checkActiveUsers(realm.id, members, tx);
      await this.parts.checkSubgroups(realm.id, subgroups, tx);
      if (await this.groups.nameTaken(realm.id, name, undefined, tx)) throw nameTaken(name);

      const settings: Record<string, number> = {};
      for (const setting of GROUP_PERMISSION_SETTING_NAMES) {
        const config = GROUP_PERMISSION_SETTINGS[setting];
        const requested = params[setting];
        settings[config.column] =
          requested !== undefined
            ? await this.values.resolve(tx, realm.id, setting, requested, null)
            : config.default === 'creator'
              ? await this.values.resolve(tx, realm.id, setting, { direct_members: [caller.id], direct_subgroups: [] }, null)
              : system.get(config.default)!;
      }
      const groupId = await this.groups.create(
        { realmId: realm.id, name, description: params.description, creatorId: caller.id, settings, members, subgroups },
        tx,
      );
      const group = await this.store.record(realm.id, groupId, tx);
      return { value: { group_id: groupId }, events: this.events.build(realm.id, everyone, [{ event: { type: 'user_group', op: 'add', group } }]) };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups, type ClientEvent, type EventDef, type GroupSettingChange, type UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, isAdminRole, isOwnerRole, mustBeAdmin, mustBeOwner, type DecodedParams } from '@teamchat/zulip';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { UsersRepository } from '../data/users.repository';
import { GroupSettingValues } from '../groups/group-setting-values';
import { UserGroupRecords } from '../groups/user-group-records';
import { settingGroupId, storedValue } from './realm-setting-values';

type Params = DecodedParams<typeof UsersGroups.updateRealmParams>;
type SettingName = UsersGroups.RealmSettingName;
type GroupName = UsersGroups.RealmGroupSettingName;
const { REALM_SETTINGS, REALM_SETTING_NAMES } = UsersGroups;
const def = (name: SettingName) => REALM_SETTINGS[name] as UsersGroups.RealmSettingDef;

/** One changed setting: its new stored value, and how the answer and the event show it. */
interface Change {
  name: SettingName;
  column: string;
  stored: unknown;
  /** The value in the answer (Zulip: "updated" for a text). */
  answer: unknown;
}

/**
 * PATCH /realm (zerver/views/realm.py update_realm, zerver/actions/realm_settings.py): an
 * administrator changes organization settings, some only an owner (OrganizationOwnerRequiredError).
 * Every value is checked first, in the catalogue's terms (UsersGroups.REALM_SETTINGS), so a bad one
 * leaves the organization as it was; then the changed settings are written in one transaction on
 * the locked row. A setting given its current value changes nothing and announces nothing. Each
 * changed setting is one `realm` event to every active user: `update` (property, value), or
 * `update_dict` for those Zulip announces so (message editing, topics_policy, group settings).
 * The answer names each changed setting with its new value, as Zulip's does.
 */
@Injectable()
export class UpdateRealm {
  constructor(
    private readonly settings: RealmSettingsRepository,
    private readonly users: UsersRepository,
    private readonly values: GroupSettingValues,
    private readonly groups: UserGroupRecords,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, unknown>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const given = REALM_SETTING_NAMES.filter((name) => params[name] !== undefined);
    if (given.some((name) => def(name).who === 'owner') && !isOwnerRole(user.role)) throw mustBeOwner();

    // Values first: none is written unless every one is acceptable.
    const proposed = new Map<SettingName, unknown>();
    for (const name of given) {
      const setting = def(name);
      if (setting.kind === 'property') proposed.set(name, setting.toStored(params[name]));
      else if (setting.kind === 'channel') proposed.set(name, await this.channelValue(realm.id, name, params[name] as number, setting.mustBePrivate));
    }

    // Read before the transaction (never through the pool inside it): the system groups, and
    // who hears of the change.
    const systemGroups = await this.groups.systemGroupIds(realm.id);
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    const changes = await this.outbox.runCold(async (tx) => {
      const row = await this.settings.lock(realm.id, tx);
      const changes: Change[] = [];
      for (const [name, stored] of proposed) {
        const column = def(name).column;
        if (storedValue(row, column) === stored) continue;
        changes.push({ name, column, stored, answer: answerFor(name, stored, params[name]) });
      }
      const groupChanges: { name: GroupName; groupId: number }[] = [];
      for (const name of given.filter((n): n is GroupName => def(n).kind === 'group')) {
        const change = params[name] as GroupSettingChange;
        const setting = REALM_SETTINGS[name];
        const currentId = settingGroupId(row, name, systemGroups);
        if (change.old !== undefined) await this.values.checkCurrent(realm.id, currentId, change.old, tx);
        if (await this.values.isCurrent(realm.id, currentId, change.new, tx)) continue;
        const stored = storedValue(row, setting.column) as number | null;
        const groupId = await this.values.resolveFor(tx, realm.id, name, { ...setting, allowOwners: true }, change.new, stored);
        if (groupId !== stored) await this.values.dropIfAnonymous(tx, stored, groupId);
        changes.push({ name, column: setting.column, stored: groupId, answer: change.new });
        groupChanges.push({ name, groupId });
      }
      if (changes.length === 0) return { value: changes, events: [] };
      await this.settings.update(realm.id, Object.fromEntries(changes.map((c) => [c.column, c.stored])), tx);

      const groupValues = await this.groups.settingValues(
        groupChanges.map((change) => change.groupId),
        tx,
      );
      const def_ = UsersGroups.RealmSettingsEvents.realmChanged as EventDef<ClientEvent>;
      return {
        value: changes,
        events: changes.map((change) => ({ def: def_, payload: { realmId: realm.id, users: everyone, event: realmEvent(change, groupValues) } })),
      };
    }, requestId);
    if (changes.length === 0) return {};
    return Object.fromEntries(changes.map((change) => [change.name, change.answer]));
  }

  /**
   * A channel setting's new value: null for a negative id (none), else a channel of the
   * organization, which an administrator may name whatever its privacy (Zulip's access_stream_by_id
   * without content access). The moderation channel must be private.
   */
  private async channelValue(realmId: number, name: SettingName, streamId: number, mustBePrivate: boolean): Promise<number | null> {
    if (streamId < 0) return null;
    const channel = await this.settings.channel(realmId, streamId);
    if (!channel) throw badRequest('Invalid channel ID');
    if (mustBePrivate && !channel.inviteOnly) throw badRequest('Moderation request channel must be private.');
    void name;
    return channel.id;
  }
}

/** Zulip's answer for a changed setting: a text is "updated", the rest their (parsed) value. */
function answerFor(name: SettingName, stored: unknown, given: unknown): unknown {
  const setting = def(name);
  if (setting.kind === 'channel') return given;
  const shown = setting.kind === 'property' ? setting.toApi(stored) : stored;
  return typeof shown === 'string' ? 'updated' : shown;
}

/** The `realm` event of one changed setting (do_set_realm_property, do_change_realm_permission_group_setting). */
function realmEvent(change: Change, groupValues: Map<number, unknown>): ClientEvent['event'] {
  const setting = def(change.name);
  if (setting.kind === 'group') {
    return { type: 'realm', op: 'update_dict', property: 'default', data: { [change.name]: groupValues.get(change.stored as number) } };
  }
  if (setting.kind === 'channel') {
    return { type: 'realm', op: 'update', property: change.name, value: (change.stored as number | null) ?? -1 };
  }
  const value = setting.toApi(change.stored);
  if (change.name === 'topics_policy') {
    const mandatory = change.stored === UsersGroups.TOPICS_POLICIES.disable_empty_topic;
    return { type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: value, mandatory_topics: mandatory } };
  }
  if (setting.event === 'update_dict') return { type: 'realm', op: 'update_dict', property: 'default', data: { [change.name]: value } };
  return { type: 'realm', op: 'update', property: change.name, value };
}

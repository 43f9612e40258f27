import { Injectable } from '@nestjs/common';
import { UsersGroupsEvents, resolveSettings, type UserCommand, type SettingName } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { SettingsRepository } from '../data/settings.repository';
import { UsersRepository } from '../data/users.repository';
import { settingChanges } from './setting-changes';

type Params = Record<string, unknown>;

/**
 * PATCH /realm/user_settings_defaults (zerver/views/realm.py update_realm_user_settings_defaults):
 * administrators change the settings new users start with, checked by the same rule as PATCH
 * /settings. Users who exist already keep theirs: a user's settings are read over the
 * organization's defaults, so anyone whose stored settings lack a changed one gets its old
 * value written first. Each changed default is announced to every active user.
 */
@Injectable()
export class UpdateRealmUserSettingsDefaults {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const changes = settingChanges(params, 'defaults');

    // Who hears of it only decides the events' audience: read before the transaction.
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    return this.outbox.runCold(async (tx) => {
      const defaults = await this.settings.lockRealmDefaults(realm.id, tx);
      const stored = defaults && typeof defaults === 'object' ? (defaults as Record<string, unknown>) : {};
      const current = resolveSettings(stored);
      const changed = Object.entries(changes).filter(([name, value]) => current[name as SettingName] !== value);
      if (changed.length === 0) return { value: {}, events: [] };

      const names = changed.map(([name]) => name);
      const previous = Object.fromEntries(names.map((name) => [name, current[name as SettingName]]));
      // Existing users' stored values win over `previous`.
      await this.settings.keepForExistingUsers(realm.id, previous, names, tx);
      await this.settings.setRealmDefaults(realm.id, { ...stored, ...Object.fromEntries(changed) }, tx);
      return {
        value: {},
        events: changed.map(([property, value]) => ({
          def: UsersGroupsEvents.realmUserSettingsDefaultsChanged,
          payload: { realmId: realm.id, users: everyone, event: { type: 'realm_user_settings_defaults', op: 'update', property, value } },
        })),
      };
    }, requestId);
  }
}

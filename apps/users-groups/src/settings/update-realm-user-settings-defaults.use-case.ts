import { Injectable } from '@nestjs/common';
import { UsersGroupsEvents, resolveSettings, type ApiCommand, type SettingName } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { isAdminRole, mustBeAdmin } from '@teamchat/zulip';
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
    private readonly prisma: PrismaService,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user!.role)) throw mustBeAdmin();
    const changes = settingChanges(params, 'defaults');

    const changed = await this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ defaults: unknown }[]>`
        SELECT user_settings_defaults AS defaults FROM realms WHERE id = ${realm.id} FOR UPDATE`;
      const stored = row.defaults && typeof row.defaults === 'object' ? (row.defaults as Record<string, unknown>) : {};
      const current = resolveSettings(stored);
      const changed = Object.entries(changes).filter(([name, value]) => current[name as SettingName] !== value);
      if (changed.length === 0) return changed;

      const names = changed.map(([name]) => name);
      const previous = Object.fromEntries(names.map((name) => [name, current[name as SettingName]]));
      // Existing users' stored values win over `previous` (jsonb `||` keeps the right side's keys).
      await tx.$executeRaw`
        UPDATE users SET settings = ${JSON.stringify(previous)}::jsonb || settings
        WHERE realm_id = ${realm.id} AND NOT (settings ?& ${names}::text[])`;
      await tx.realm.update({ where: { id: realm.id }, data: { userSettingsDefaults: { ...stored, ...Object.fromEntries(changed) } as object } });
      return changed;
    });
    if (changed.length === 0) return {};

    const everyone = (await this.prisma.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true } })).map((u) => u.id);
    await this.events.publishAll(
      changed.map(([property, value]) => ({
        def: UsersGroupsEvents.realmUserSettingsDefaultsChanged,
        payload: { realmId: realm.id, users: everyone, event: { type: 'realm_user_settings_defaults', op: 'update', property, value } },
      })),
      requestId,
    );
    return {};
  }
}

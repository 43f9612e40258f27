import { Injectable } from '@nestjs/common';
import {
  Messaging,
  USER_SETTINGS,
  UsersGroupsEvents,
  resolveSettings,
  type ApiCommand,
  type SettingName,
} from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { CommandClient, EventBus } from '@teamchat/platform';
import { LIMITS, badRequest } from '@teamchat/zulip';
import { userSettingsEvents } from './user-settings-events';

type Params = Record<string, unknown>;

const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));

/**
 * PATCH /settings (zerver/views/user_settings.py): the caller's own settings, checked against
 * the catalogue, all or nothing. Each change is announced to the user's clients; turning
 * drafts synchronisation off deletes the stored drafts (messaging owns them).
 */
@Injectable()
export class UpdateSettings {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventBus,
    private readonly commands: CommandClient,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    const caller = user!;
    const changes: Partial<Record<SettingName, unknown>> = {};
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || !(name in USER_SETTINGS)) continue;
      const def = USER_SETTINGS[name as SettingName] as { isValid: (v: unknown) => boolean };
      if (!def.isValid(value)) throw badRequest(invalidText(name, value));
      changes[name as SettingName] = value;
    }
    const fullName = params.full_name === undefined ? undefined : checkFullName(String(params.full_name));
    const timezone = params.timezone === undefined ? undefined : checkTimezone(String(params.timezone));

    const stored = await this.prisma.user.findUniqueOrThrow({ where: { id: caller.id }, include: { realm: true } });
    const before = resolveSettings(stored.realm.userSettingsDefaults, stored.settings);
    const changed = Object.entries(changes).filter(([name, value]) => before[name as SettingName] !== value);
    await this.prisma.user.update({
      where: { id: caller.id },
      data: {
        settings: { ...before, ...changes } as object,
        ...(fullName !== undefined ? { fullName } : {}),
        ...(timezone !== undefined ? { timezone } : {}),
      },
    });

    if (changes.enable_drafts_synchronization === false && before.enable_drafts_synchronization !== false) {
      await this.commands.call(Messaging.deleteUserDrafts, { realmId: realm.id, userId: caller.id });
    }
    const settingEvents = userSettingsEvents(realm.id, caller.id, [
      ...changed.map(([property, value]) => ({ property, value })),
      ...(timezone !== undefined && timezone !== stored.timezone ? [{ property: 'timezone', value: timezone }] : []),
    ]);
    const nameEvents =
      fullName !== undefined && fullName !== stored.fullName
        ? [
            {
              def: UsersGroupsEvents.realmUserChanged,
              payload: {
                realmId: realm.id,
                users: (await this.prisma.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true } })).map(
                  (u) => u.id,
                ),
                event: { type: 'realm_user', op: 'update', person: { user_id: caller.id, full_name: fullName } },
              },
            },
          ]
        : [];
    await this.events.publishAll([...settingEvents, ...nameEvents], requestId);
    return {};
  }
}

function invalidText(name: string, value: unknown): string {
  if (name === 'email_notifications_batching_period_seconds') return `Invalid email batching period: ${value} seconds`;
  if (name === 'notification_sound') return `Invalid notification sound '${value}'`;
  return `Invalid ${name}`;
}

function checkFullName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('Name too short!');
  if ([...name].length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  if (/[\p{Cc}*`\\>"@]/u.test(name)) throw badRequest('Invalid characters in name!');
  return name;
}

function checkTimezone(raw: string): string {
  if (raw !== '' && !TIME_ZONES.has(raw) && raw !== 'UTC') throw badRequest(`Invalid timezone: ${raw}`);
  return raw;
}

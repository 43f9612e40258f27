import { Injectable } from '@nestjs/common';
import { resolveSettings, type PayloadOf, type UsersGroups } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { userSettingsEvents } from './user-settings-events';

type Command = PayloadOf<typeof UsersGroups.setPresenceEnabled>;

/**
 * Sets a user's presence_enabled (for presence's deprecated `away` status parameter), stored
 * as PATCH /settings stores settings and announced the same way when it changes. The user's
 * row is locked meanwhile, so a concurrent settings change is not lost.
 */
@Injectable()
export class SetPresenceEnabled {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventBus,
  ) {}

  async execute({ realmId, userId, enabled, requestId }: Command): Promise<Record<string, never>> {
    const changed = await this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ settings: unknown; defaults: unknown }[]>`
        SELECT u.settings, r.user_settings_defaults AS defaults
        FROM users u JOIN realms r ON r.id = u.realm_id
        WHERE u.id = ${userId} AND u.realm_id = ${realmId}
        FOR UPDATE OF u`;
      if (!row) throw badRequest('No such user');
      const before = resolveSettings(row.defaults, row.settings);
      if (before.presence_enabled === enabled) return false;
      await tx.user.update({ where: { id: userId }, data: { settings: { ...before, presence_enabled: enabled } } });
      return true;
    });
    if (changed) {
      await this.events.publishAll(userSettingsEvents(realmId, userId, [{ property: 'presence_enabled', value: enabled }]), requestId);
    }
    return {};
  }
}

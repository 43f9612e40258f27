import { Injectable } from '@nestjs/common';
import { resolveSettings, type PayloadOf, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { SettingsRepository } from '../data/settings.repository';
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
    private readonly settings: SettingsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realmId, userId, enabled, requestId }: Command): Promise<Record<string, never>> {
    return this.outbox.runCold(async (tx) => {
      const row = await this.settings.lockOfUser(realmId, userId, tx);
      if (!row) throw badRequest('No such user');
      const before = resolveSettings(row.defaults, row.settings);
      if (before.presence_enabled === enabled) return { value: {}, events: [] };
      await this.settings.save(userId, { settings: { ...before, presence_enabled: enabled } }, tx);
      return { value: {}, events: userSettingsEvents(realmId, userId, [{ property: 'presence_enabled', value: enabled }]) };
    }, requestId);
  }
}

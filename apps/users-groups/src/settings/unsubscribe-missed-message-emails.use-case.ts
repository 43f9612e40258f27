import { Injectable } from '@nestjs/common';
import { resolveSettings, type PayloadOf, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { SettingsRepository } from '../data/settings.repository';
import { userSettingsEvents } from './user-settings-events';

type Command = PayloadOf<typeof UsersGroups.unsubscribeMissedMessageEmails>;

/**
 * Turns a user's missed-message emails off (Zulip's do_missedmessage_unsubscribe, from the
 * unsubscribe link), stored as PATCH /settings stores settings and announced the same way when
 * it changes; the user's row is locked meanwhile.
 */
@Injectable()
export class UnsubscribeMissedMessageEmails {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realmId, userId, requestId }: Command): Promise<Record<string, never>> {
    return this.outbox.runCold(async (tx) => {
      const row = await this.settings.lockOfUser(realmId, userId, tx);
      if (!row) throw badRequest('No such user');
      const before = resolveSettings(row.defaults, row.settings);
      if (!before.enable_offline_email_notifications) return { value: {}, events: [] };
      await this.settings.save(userId, { settings: { ...before, enable_offline_email_notifications: false } }, tx);
      return { value: {}, events: userSettingsEvents(realmId, userId, [{ property: 'enable_offline_email_notifications', value: false }]) };
    }, requestId);
  }
}

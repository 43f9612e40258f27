import { Inject, Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { Messaging, UsersGroups } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { ScheduledMessagesRepository, type StoredScheduledMessage } from '../data/scheduled-messages.repository';
import { ReminderEvents } from '../reminders/reminder-events';

/** An owner or organization no longer active: the reminder fails, with Zulip's text. */
const OWNER_GONE = new Set(['USER_DEACTIVATED', 'REALM_DEACTIVATED']);

/**
 * Delivers one reminder (Zulip's send_reminder): the text is written again about the message
 * as it is now (the message the owner can no longer read keeps the text it was scheduled with),
 * and the organization's notification bot sends it to the owner as a direct message, keyed by
 * the reminder so it becomes one message however many times this runs. Unlike a scheduled
 * message, a late reminder is still delivered. An owner or organization deactivated, or a send
 * refused, fails it with the reason, with no notice (Zulip: "Reminders have their own
 * notification system"); any other fault throws, for BullMQ to retry.
 */
@Injectable()
export class DeliverReminder {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly commands: CommandClient,
    private readonly outbox: EventOutbox,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(stored: StoredScheduledMessage): Promise<'delivered' | 'failed' | 'stale'> {
    const requestId = `reminder-${stored.id}-v${stored.version}`;
    let content = stored.content;
    try {
      ({ content } = await this.commands.call(Messaging.reminderContent, {
        realmId: stored.realmId,
        userId: stored.senderId,
        messageId: stored.reminderTargetMessageId!,
        note: stored.reminderNote,
        requestId,
      }));
    } catch (error) {
      if (!(error instanceof ZulipError) || error.status >= 500) throw error;
      if (OWNER_GONE.has(error.code)) return this.fail(stored, error.message);
      // The message is gone or no longer readable: the text as it was scheduled.
    }
    let messageId: number;
    try {
      const { userId: botId } = await this.commands.call(UsersGroups.notificationBot, { realmId: stored.realmId });
      ({ id: messageId } = await this.commands.call(Messaging.sendScheduledMessage, {
        realmId: stored.realmId,
        senderId: botId,
        client: 'Internal',
        readBySender: null,
        scheduledMessageId: stored.id,
        requestId,
        type: 'private',
        to: JSON.stringify([stored.senderId]),
        content,
      }));
    } catch (error) {
      if (error instanceof ZulipError && error.status < 500) return this.fail(stored, 'Reminder could not be sent.');
      throw error;
    }
    await this.outbox.runCold(async (tx) => {
      const recorded = await this.scheduledMessages.markDelivered(stored.id, messageId, tx);
      return { value: undefined, events: recorded ? [ReminderEvents.removed(stored)] : [] };
    });
    return 'delivered';
  }

  private async fail(stored: StoredScheduledMessage, reason: string): Promise<'failed' | 'stale'> {
    const failed = await this.scheduledMessages.markFailed(stored.id, stored.version, reason);
    if (!failed) return 'stale';
    this.logger.info({ reminderId: stored.id, reason }, 'reminder failed');
    return 'failed';
  }
}

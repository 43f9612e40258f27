import { Inject, Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { Messaging, type Scheduler } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { ScheduledMessageEvents } from '../scheduled-messages/scheduled-message-events';
import { sendTargetOf } from '../scheduled-messages/scheduled-message-record';
import { DeliveryType, ScheduledMessagesRepository, type StoredScheduledMessage } from '../data/scheduled-messages.repository';
import { DeliverReminder } from './deliver-reminder.use-case';
import { DELIVERY } from './delivery.settings';
import { FailureNotice } from './failure-notice';

/** Failures that are the sender's account or organization: nobody to tell (Zulip sends no notice either). */
const NO_NOTICE = new Set(['USER_DEACTIVATED', 'REALM_DEACTIVATED']);

/**
 * Delivers one scheduled message (Zulip's send_scheduled_message): through messaging's own send,
 * as the stored sender, keyed by the scheduled message so it becomes one message however many
 * times this runs. A refusal by the rules of sending (channel gone, permission lost, sender
 * deactivated, too late) marks it failed with the reason, tells the sender by an update event
 * and a direct message from the notification bot, and is not retried; any other fault (messaging
 * unreachable) throws, for BullMQ to retry.
 */
@Injectable()
export class DeliverScheduledMessage {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly commands: CommandClient,
    private readonly outbox: EventOutbox,
    private readonly notice: FailureNotice,
    private readonly reminders: DeliverReminder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(job: Scheduler.DeliveryJob): Promise<'delivered' | 'failed' | 'stale'> {
    const stored = await this.scheduledMessages.byId(job.id);
    // Delivered, failed, edited (a newer job exists) or deleted meanwhile: nothing to do.
    if (!stored || stored.delivered || stored.failed || stored.version !== job.version) return 'stale';
    // Reminders go their own way (and are delivered however late).
    if (stored.deliveryType === DeliveryType.REMIND) return this.reminders.execute(stored);
    if (Date.now() > stored.scheduledAt.getTime() + DELIVERY.lateCutoffMs) {
      return this.fail(stored, new ZulipError('BAD_REQUEST', 'Message could not be sent at the scheduled time.'));
    }
    let messageId: number;
    try {
      ({ id: messageId } = await this.commands.call(Messaging.sendScheduledMessage, {
        realmId: stored.realmId,
        senderId: stored.senderId,
        client: stored.sendingClient,
        readBySender: stored.readBySender,
        scheduledMessageId: stored.id,
        requestId: `scheduled-${stored.id}-v${stored.version}`,
        type: stored.type === 'stream' ? 'stream' : 'private',
        to: sendTargetOf(stored),
        ...(stored.type === 'stream' ? { topic: stored.topic } : {}),
        content: stored.content,
      }));
    } catch (error) {
      // A refusal by the rules of sending (a 4xx) fails the message; a fault (5xx) is retried.
      if (error instanceof ZulipError && error.status < 500) return this.fail(stored, error);
      throw error;
    }
    await this.outbox.runCold(async (tx) => {
      const recorded = await this.scheduledMessages.markDelivered(stored.id, messageId, tx);
      return { value: undefined, events: recorded ? [ScheduledMessageEvents.removed(stored)] : [] };
    });
    return 'delivered';
  }

  private async fail(stored: StoredScheduledMessage, error: ZulipError): Promise<'failed' | 'stale'> {
    const failed = await this.outbox.runCold(async (tx) => {
      const row = await this.scheduledMessages.markFailed(stored.id, stored.version, error.message, tx);
      return { value: row, events: row ? [ScheduledMessageEvents.updated(row)] : [] };
    });
    if (!failed) return 'stale';
    this.logger.info({ scheduledMessageId: stored.id, reason: error.message }, 'scheduled message failed');
    if (!NO_NOTICE.has(error.code)) await this.notice.send(failed);
    return 'failed';
  }
}

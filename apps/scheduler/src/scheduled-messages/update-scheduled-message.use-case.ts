import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { Messaging, type UserCommand, type Scheduler } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { scheduledMessageNotFound } from './delete-scheduled-message.use-case';
import { mustBeInFuture, scheduledTarget, storedType } from './recipient-target';
import { sendTargetOf } from './scheduled-message-record';
import { ScheduledMessageEvents } from './scheduled-message-events';
import { ScheduledMessagesRepository, type ScheduledMessageFields } from '../data/scheduled-messages.repository';

type Params = DecodedParams<typeof Scheduler.updateScheduledMessageParams>;

/**
 * PATCH /scheduled_messages/{id} (update_scheduled_message_backend, edit_scheduled_message):
 * any of type, to, topic, content and time, in Zulip's order of checks. A changed message is
 * checked again by messaging as a send would be. A failed one needs a new time, and is pending
 * again after the edit. The edit moves the delivery job (a new version's job; the old one is
 * dropped or finds itself stale).
 */
@Injectable()
export class UpdateScheduledMessage {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly commands: CommandClient,
    private readonly queue: DeliveryQueue,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId, client }: UserCommand<Params>): Promise<Record<string, never>> {
    const sender = user;
    const { type, to, topic, content, scheduled_delivery_timestamp: at } = params;
    if (type === undefined && to === undefined && topic === undefined && content === undefined && at === undefined) {
      throw badRequest('Nothing to change');
    }
    if (type !== undefined && to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
    if (type !== undefined && storedType(type) === 'stream' && topic === undefined) {
      throw badRequest('Topic required when updating scheduled message type to channel.');
    }
    if (at !== undefined) mustBeInFuture(at);

    const stored = await this.scheduledMessages.ownUndelivered(realm.id, sender.id, params.scheduled_message_id);
    if (!stored) throw scheduledMessageNotFound();
    if (stored.failed && at === undefined) throw badRequest('Scheduled delivery time must be in the future.');

    const fields: Partial<ScheduledMessageFields> = { sendingClient: client ?? 'API' };
    if (type !== undefined || to !== undefined || topic !== undefined || content !== undefined) {
      const newType = type !== undefined ? storedType(type) : (stored.type as 'stream' | 'private');
      const checked = await this.commands.call(Messaging.checkMessage, {
        realm,
        user: sender,
        requestId,
        client,
        type: newType,
        to: to !== undefined ? scheduledTarget(newType, to) : sendTargetOf(stored),
        // A direct message has no topic; a channel message keeps its own unless given one.
        topic: newType === 'stream' ? (topic ?? stored.topic) : undefined,
        content: content ?? stored.content,
      });
      Object.assign(fields, { type: newType, ...checked });
    }
    if (at !== undefined) fields.scheduledAt = new Date(at * 1000);

    const edited = await this.outbox.runCold(async (tx) => {
      const row = await this.scheduledMessages.edit(stored.id, fields, tx);
      if (!row) throw badRequest('Scheduled message was already sent');
      return { value: row, events: [ScheduledMessageEvents.updated(row)] };
    }, requestId);
    await this.queue.cancel(stored.id, stored.version);
    await this.queue.schedule([edited]);
    return {};
  }
}

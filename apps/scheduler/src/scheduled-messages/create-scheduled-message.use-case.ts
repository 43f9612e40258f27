import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { Messaging, type UserCommand, type Scheduler } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { mustBeInFuture, scheduledTarget, storedType } from './recipient-target';
import { ScheduledMessageEvents } from './scheduled-message-events';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';

type Params = DecodedParams<typeof Scheduler.createScheduledMessageParams>;

/**
 * POST /scheduled_messages (zerver/views/scheduled_messages.py create_scheduled_message_backend):
 * the time must be in the future, then messaging checks the message as it would a send (every
 * error of POST /messages); the checked message is stored, its delivery job queued, and the
 * sender's clients told (`scheduled_messages` add).
 */
@Injectable()
export class CreateScheduledMessage {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly commands: CommandClient,
    private readonly queue: DeliveryQueue,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId, client }: UserCommand<Params>): Promise<{ scheduled_message_id: number }> {
    const sender = user;
    mustBeInFuture(params.scheduled_delivery_timestamp);
    const type = storedType(params.type);
    const checked = await this.commands.call(Messaging.checkMessage, {
      realm,
      user: sender,
      requestId,
      client,
      type,
      to: scheduledTarget(type, params.to),
      topic: params.topic,
      content: params.content,
    });
    const fields = { type, ...checked, sendingClient: client ?? 'API', scheduledAt: new Date(params.scheduled_delivery_timestamp * 1000) };
    const stored = await this.outbox.runCold(async (tx) => {
      const row = await this.scheduledMessages.create(realm.id, sender.id, fields, params.read_by_sender ?? null, tx);
      return { value: row, events: [ScheduledMessageEvents.added(row)] };
    }, requestId);
    await this.queue.schedule([stored]);
    return { scheduled_message_id: stored.id };
  }
}

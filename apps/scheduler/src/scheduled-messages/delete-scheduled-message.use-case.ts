import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import type { UserCommand, Scheduler } from '@teamchat/contracts';
import { resourceNotFound, type DecodedParams } from '@teamchat/zulip';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { ScheduledMessageEvents } from './scheduled-message-events';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';

type Params = DecodedParams<typeof Scheduler.scheduledMessagePathParams>;

export const scheduledMessageNotFound = () => resourceNotFound('Scheduled message does not exist');

/** DELETE /scheduled_messages/{id}: the caller's own undelivered one only; its job is dropped. */
@Injectable()
export class DeleteScheduledMessage {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly queue: DeliveryQueue,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const stored = await this.scheduledMessages.ownUndelivered(realm.id, user.id, params.scheduled_message_id);
    if (!stored) throw scheduledMessageNotFound();
    await this.outbox.runCold(async (tx) => {
      if (!(await this.scheduledMessages.delete(realm.id, user.id, stored.id, tx))) throw scheduledMessageNotFound();
      return { value: undefined, events: [ScheduledMessageEvents.removed(stored)] };
    }, requestId);
    await this.queue.cancel(stored.id, stored.version);
    return {};
  }
}

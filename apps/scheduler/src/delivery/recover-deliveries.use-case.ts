import { Injectable } from '@nestjs/common';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';
import { DeliveryQueue } from './delivery.queue';

/**
 * Postgres is the truth: queues the delivery of every pending scheduled message. Jobs that
 * exist are left alone (same id), so only what Redis lost is re-created; overdue ones run at once.
 */
@Injectable()
export class RecoverDeliveries {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  async execute(): Promise<void> {
    await this.queue.schedule(await this.scheduledMessages.pending());
  }
}

import { Injectable } from '@nestjs/common';
import { SchedulerEvents } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import { toScheduledMessageRecord } from './scheduled-message-record';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';

/** The `scheduled_messages` events, always to the sender alone. */
@Injectable()
export class ScheduledMessageEvents {
  constructor(private readonly events: EventBus) {}

  added(stored: StoredScheduledMessage, requestId?: string): Promise<void> {
    return this.publish(stored, { type: 'scheduled_messages', op: 'add', scheduled_messages: [toScheduledMessageRecord(stored)] }, requestId);
  }

  updated(stored: StoredScheduledMessage, requestId?: string): Promise<void> {
    return this.publish(stored, { type: 'scheduled_messages', op: 'update', scheduled_message: toScheduledMessageRecord(stored) }, requestId);
  }

  removed(stored: Pick<StoredScheduledMessage, 'id' | 'realmId' | 'senderId'>, requestId?: string): Promise<void> {
    return this.publish(stored, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: stored.id }, requestId);
  }

  private publish(stored: Pick<StoredScheduledMessage, 'realmId' | 'senderId'>, event: { type: string } & Record<string, unknown>, requestId?: string) {
    return this.events.publishAll(
      [{ def: SchedulerEvents.scheduledMessagesChanged, payload: { realmId: stored.realmId, users: [stored.senderId], event } }],
      requestId,
    );
  }
}

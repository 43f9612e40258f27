import { Injectable } from '@nestjs/common';
import { SchedulerEvents } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';
import { toReminderRecord } from './reminder-record';

/** The `reminders` events, always to the reminder's owner alone. */
@Injectable()
export class ReminderEvents {
  constructor(private readonly events: EventBus) {}

  added(stored: StoredScheduledMessage, requestId?: string): Promise<void> {
    return this.publish(stored, { type: 'reminders', op: 'add', reminders: [toReminderRecord(stored)] }, requestId);
  }

  removed(stored: Pick<StoredScheduledMessage, 'id' | 'realmId' | 'senderId'>, requestId?: string): Promise<void> {
    return this.publish(stored, { type: 'reminders', op: 'remove', reminder_id: stored.id }, requestId);
  }

  private publish(stored: Pick<StoredScheduledMessage, 'realmId' | 'senderId'>, event: { type: string } & Record<string, unknown>, requestId?: string) {
    return this.events.publishAll([{ def: SchedulerEvents.remindersChanged, payload: { realmId: stored.realmId, users: [stored.senderId], event } }], requestId);
  }
}

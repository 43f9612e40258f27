import { SchedulerEvents } from '@teamchat/contracts';
import type { OutboxEvent } from '@teamchat/db';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';
import { toReminderRecord } from './reminder-record';

/** The `reminders` events, always to the reminder's owner alone: written to the outbox with the change. */
export const ReminderEvents = {
  added: (stored: StoredScheduledMessage): OutboxEvent => changed(stored, { type: 'reminders', op: 'add', reminders: [toReminderRecord(stored)] }),

  removed: (stored: Pick<StoredScheduledMessage, 'id' | 'realmId' | 'senderId'>): OutboxEvent =>
    changed(stored, { type: 'reminders', op: 'remove', reminder_id: stored.id }),
};

const changed = (stored: Pick<StoredScheduledMessage, 'realmId' | 'senderId'>, event: { type: string } & Record<string, unknown>): OutboxEvent => ({
  def: SchedulerEvents.remindersChanged,
  payload: { realmId: stored.realmId, users: [stored.senderId], event },
});

import { SchedulerEvents } from '@teamchat/contracts';
import type { OutboxEvent } from '@teamchat/db';
import { toScheduledMessageRecord } from './scheduled-message-record';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';

/** The `scheduled_messages` events, always to the sender alone: written to the outbox with the change. */
export const ScheduledMessageEvents = {
  added: (stored: StoredScheduledMessage): OutboxEvent =>
    changed(stored, { type: 'scheduled_messages', op: 'add', scheduled_messages: [toScheduledMessageRecord(stored)] }),

  updated: (stored: StoredScheduledMessage): OutboxEvent =>
    changed(stored, { type: 'scheduled_messages', op: 'update', scheduled_message: toScheduledMessageRecord(stored) }),

  removed: (stored: Pick<StoredScheduledMessage, 'id' | 'realmId' | 'senderId'>): OutboxEvent =>
    changed(stored, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: stored.id }),
};

const changed = (stored: Pick<StoredScheduledMessage, 'realmId' | 'senderId'>, event: { type: string } & Record<string, unknown>): OutboxEvent => ({
  def: SchedulerEvents.scheduledMessagesChanged,
  payload: { realmId: stored.realmId, users: [stored.senderId], event },
});

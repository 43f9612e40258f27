import type { Scheduler } from '@teamchat/contracts';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';

/** A reminder as clients see it (Zulip's ScheduledMessage.to_reminder_dict): a direct message to its owner. */
export function toReminderRecord(stored: StoredScheduledMessage): Scheduler.ReminderRecord {
  return {
    reminder_id: stored.id,
    type: 'private',
    to: [stored.senderId],
    content: stored.content,
    rendered_content: stored.renderedContent,
    scheduled_delivery_timestamp: Math.floor(stored.scheduledAt.getTime() / 1000),
    failed: stored.failed,
    reminder_target_message_id: stored.reminderTargetMessageId!,
  };
}

import { clientEventSchema, defineEvent } from '../event';

export const SchedulerEvents = {
  /** `scheduled_messages` add/update/remove, to the sender only. */
  scheduledMessagesChanged: defineEvent('scheduler', 'scheduled_messages_changed', clientEventSchema),
  /** `reminders` add/remove, to the reminder's owner only. */
  remindersChanged: defineEvent('scheduler', 'reminders_changed', clientEventSchema),
};

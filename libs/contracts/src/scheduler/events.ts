import { clientEventSchema, defineEvent } from '../event';

export const SchedulerEvents = {
  /** `scheduled_messages` add/update/remove, to the sender only. */
  scheduledMessagesChanged: defineEvent('scheduler', 'scheduled_messages_changed', clientEventSchema),
};

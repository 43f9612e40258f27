import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

/** Zulip's MAX_REMINDER_NOTE_LENGTH (`max_reminder_note_length` in POST /register). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

/**
 * A reminder as GET /reminders and the `reminders` events show it (Zulip's
 * ScheduledMessage.to_reminder_dict): a direct message to the caller alone.
 */
export const reminderSchema = apiSchema(
  'Reminder',
  z.object({
    reminder_id: int(),
    type: z.enum(['private']),
    /** The caller, to whom the notification bot sends it. */
    to: z.array(int()),
    content: z.string(),
    rendered_content: z.string(),
    /** Unix seconds. */
    scheduled_delivery_timestamp: int(),
    failed: z.boolean(),
    reminder_target_message_id: int(),
  }),
);
export type ReminderRecord = z.infer<typeof reminderSchema>;

export const createReminderParams = {
  message_id: param.int(),
  scheduled_delivery_timestamp: param.int(),
  note: param.string().optional(),
};

export const createReminder = defineApiCommand('scheduler', 'create_reminder', {
  route: 'POST /reminders',
  summary: 'Schedules a reminder of a message the caller can read: the notification bot sends it to them at that time.',
  params: createReminderParams,
  response: z.object({ reminder_id: int() }),
});

export const listReminders = defineApiCommand('scheduler', 'list_reminders', {
  route: 'GET /reminders',
  summary: "The caller's undelivered reminders, failed ones included, earliest first.",
  params: {},
  response: z.object({ reminders: z.array(reminderSchema) }),
});

export const reminderPathParams = {
  reminder_id: param.int(),
};

export const deleteReminder = defineApiCommand('scheduler', 'delete_reminder', {
  route: 'DELETE /reminders/{reminder_id}',
  summary: "Deletes (cancels) a reminder of the caller's.",
  params: reminderPathParams,
  response: emptyResponse,
});

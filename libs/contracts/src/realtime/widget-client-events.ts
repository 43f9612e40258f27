import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { reminderSchema } from '../scheduler/reminders';
import { base, withOp } from './client-event-shapes';

// Client events of reminders, widgets' submessages and message-edit typing (client-events.ts
// gathers every topic's events into one union and re-exports them).

/** `reminders` add: reminders the caller scheduled (POST /reminders). */
export const remindersAddEvent = apiSchema('RemindersAddEvent', z.object({ ...withOp('reminders', 'add'), reminders: z.array(reminderSchema) }));
/** `reminders` remove: one deleted, or delivered. */
export const remindersRemoveEvent = apiSchema('RemindersRemoveEvent', z.object({ ...withOp('reminders', 'remove'), reminder_id: int() }));

/** `submessage`: a submessage added to a message (a widget's vote or change), to everyone who received the message. */
export const submessageEvent = apiSchema(
  'SubmessageEvent',
  z.object({
    ...base('submessage'),
    msg_type: z.string(),
    /** The submessage's JSON text, as it was sent. */
    content: z.string(),
    message_id: int(),
    sender_id: int(),
    submessage_id: int(),
  }),
);

/** Where a message being edited is: a channel topic, or a direct conversation's recipients. */
const editRecipient = z.union([
  z.object({ type: z.literal('channel'), channel_id: int(), topic: z.string() }),
  z.object({ type: z.literal('direct'), user_ids: z.array(int()) }),
]);

/** `typing_edit_message` start or stop: someone is editing a message's content. */
const typingEditEvent = <O extends 'start' | 'stop'>(op: O) =>
  z.object({ ...withOp('typing_edit_message', op), sender_id: int(), message_id: int(), recipient: editRecipient });
export const typingEditMessageStartEvent = apiSchema('TypingEditMessageStartEvent', typingEditEvent('start'));
export const typingEditMessageStopEvent = apiSchema('TypingEditMessageStopEvent', typingEditEvent('stop'));

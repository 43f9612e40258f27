import { z } from 'zod';
import { defineCommand } from '../command';

/**
 * `messaging.readable_messages.v1`: which of `messageIds` the user may read (Zulip's
 * has_message_access: a recipient; a subscriber of the channel, from the moment they subscribed
 * when its history is protected; anyone but a guest for a public channel). For the uploads
 * service: whoever may read a message that links a file may read the file.
 */
export const readableMessagesPayload = z.object({
  realmId: z.number().int(),
  userId: z.number().int(),
  messageIds: z.array(z.number().int()).max(1000),
});
export const readableMessages = defineCommand<z.infer<typeof readableMessagesPayload>, { messageIds: number[] }>(
  'messaging',
  'readable_messages',
  readableMessagesPayload,
);

import { z } from 'zod';
import { defineCommand } from '../command';

/**
 * Internal, from presence for channel typing: checks that the sender may send to the channel
 * (the same rule as sending a message) and returns who is subscribed to it.
 */
export const typingAudience = defineCommand<
  { realmId: number; userId: number; streamId: number },
  { subscriberIds: number[] }
>('messaging', 'typing_audience', z.object({ realmId: z.number().int(), userId: z.number().int(), streamId: z.number().int() }));

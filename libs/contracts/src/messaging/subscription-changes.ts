import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/** One channel to subscribe to: its name, and for a new subscription its color, for a new channel its description. */
const addition = z.object({ name: z.string(), color: z.string().optional(), description: z.string().optional() }).strict();

export const updateSubscriptionsParams = {
  /** Channel names to unsubscribe from. */
  delete: param.json(z.array(z.string())).optional(),
  add: param.json(z.array(addition)).optional(),
};

/** Per user (by id, as POST /users/me/subscriptions answers), the channel names. */
const namesByUser = z.record(z.string(), z.array(z.string()));

/**
 * PATCH /users/me/subscriptions (zerver/views/streams.py update_subscriptions_backend): POST
 * /users/me/subscriptions for `add`, then DELETE /users/me/subscriptions for `delete`, for the
 * caller, answered together.
 */
export const updateSubscriptions = defineApiCommand('messaging', 'update_subscriptions', {
  route: 'PATCH /users/me/subscriptions',
  summary: 'Subscribes the caller to the channels in `add` (creating new ones) and unsubscribes them from those in `delete`.',
  params: updateSubscriptionsParams,
  response: z.object({
    subscribed: namesByUser,
    already_subscribed: namesByUser,
    removed: z.array(z.string()),
    not_removed: z.array(z.string()),
  }),
});

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { authUserSchema, defineApiCommand, defineCommand, type AuthUser } from '../command';
import { emptyResponse } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

export const defaultChannelParams = { stream_id: param.int() };

export const addDefaultChannel = defineApiCommand('messaging', 'add_default_channel', {
  route: 'POST /default_streams',
  summary: 'Makes a public channel a default channel: new users are subscribed to it (administrators only).',
  params: defaultChannelParams,
  response: emptyResponse,
});

export const removeDefaultChannel = defineApiCommand('messaging', 'remove_default_channel', {
  route: 'DELETE /default_streams',
  summary: 'Removes a channel from the default channels (administrators only).',
  params: defaultChannelParams,
  response: emptyResponse,
});

export const DefaultChannelEvents = {
  /** `default_streams` events (every default channel's id), to every active user of the organization. */
  defaultChannelsChanged: defineEvent('messaging', 'default_channels_changed', clientEventSchema),
};

/**
 * Internal, from users-groups when POST /users made an account: the new user joins the
 * organization's default channels through the subscription path (none for bots and guests).
 */
export const subscribeToDefaultChannels = defineCommand<{ user: AuthUser; requestId: string }, { subscribed: string[] }>(
  'messaging',
  'subscribe_to_default_channels',
  z.object({ user: authUserSchema, requestId: z.string() }),
);

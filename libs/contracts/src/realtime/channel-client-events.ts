import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { channelFolderSchema } from '../messaging/channel-folders';
import { channelSchema, subscriptionSchema } from '../messaging/channels';
import { groupSettingValueSchema } from '../users-groups/user-groups';
import { userTopicSchema } from './register-records';
import { base, withOp } from './client-event-shapes';

// Client events of channels: subscriptions, channels, topics, default channels, channel folders
// (client-events.ts gathers every topic's events into one union and re-exports them).

/** `subscription` add: the caller's new subscriptions, with their subscribers. */
export const subscriptionAddEvent = apiSchema(
  'SubscriptionAddEvent',
  z.object({ ...withOp('subscription', 'add'), subscriptions: z.array(subscriptionSchema) }),
);

/** `subscription` remove: the channels the caller left. */
export const subscriptionRemoveEvent = apiSchema(
  'SubscriptionRemoveEvent',
  z.object({
    ...withOp('subscription', 'remove'),
    subscriptions: z.array(z.object({ stream_id: int(), name: z.string() })),
  }),
);

/** The subscription properties whose values are booleans. */
const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'is_muted',
  /** Deprecated: the opposite of `is_muted`, sent just before it. */
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** `subscription` update: one property of the caller's subscription changed. */
export const subscriptionUpdateEvent = apiSchema(
  'SubscriptionUpdateEvent',
  z.union([
    z.object({ ...withOp('subscription', 'update'), stream_id: int(), property: z.literal('color'), value: z.string() }),
    z.object({ ...withOp('subscription', 'update'), stream_id: int(), property: z.enum(BOOLEAN_SUBSCRIPTION_PROPERTIES), value: z.boolean() }),
  ]),
);

/** `subscription` peer_add / peer_remove: other users joined or left channels the recipient can see. */
const peerEvent = <O extends 'peer_add' | 'peer_remove'>(op: O) =>
  z.object({ ...withOp('subscription', op), stream_ids: z.array(int()), user_ids: z.array(int()) });
export const subscriptionPeerAddEvent = apiSchema('SubscriptionPeerAddEvent', peerEvent('peer_add'));
export const subscriptionPeerRemoveEvent = apiSchema('SubscriptionPeerRemoveEvent', peerEvent('peer_remove'));

/** `stream` create: channels the recipient can now see (new ones, or ones they were just added to). */
export const streamCreateEvent = apiSchema('StreamCreateEvent', z.object({ ...withOp('stream', 'create'), streams: z.array(channelSchema) }));

/** `stream` delete: channels the recipient can no longer see. */
export const streamDeleteEvent = apiSchema(
  'StreamDeleteEvent',
  z.object({
    ...withOp('stream', 'delete'),
    /** Deprecated: `stream_ids` as objects. */
    streams: z.array(z.object({ stream_id: int() })),
    stream_ids: z.array(int()),
  }),
);

/** `stream` update: one property of a channel changed (PATCH /streams/{stream_id}, or `first_message_id` when the oldest message goes). */
export const streamUpdateEvent = apiSchema(
  'StreamUpdateEvent',
  z.object({
    ...withOp('stream', 'update'),
    stream_id: int(),
    /** The channel's name (before a rename). */
    name: z.string(),
    property: z.string(),
    value: z.union([z.string(), z.boolean(), int(), groupSettingValueSchema]).nullable(),
    /** With `description`. */
    rendered_description: z.string().optional(),
    /** With `invite_only`. */
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
);

/** `user_topic`: the recipient's visibility policy of a topic changed (0: back to inherit). */
export const userTopicEvent = apiSchema('UserTopicEvent', z.object({ ...base('user_topic'), ...userTopicSchema.shape }));

/** `default_streams`: the organization's default channels changed; every default channel's id. */
export const defaultStreamsEvent = apiSchema('DefaultStreamsEvent', z.object({ ...base('default_streams'), default_streams: z.array(int()) }));

/** `channel_folder` add: a folder created (POST /channel_folders/create). */
export const channelFolderAddEvent = apiSchema(
  'ChannelFolderAddEvent',
  z.object({ ...withOp('channel_folder', 'add'), channel_folder: channelFolderSchema }),
);
/** `channel_folder` update: the changed keys of a folder (PATCH /channel_folders/{channel_folder_id}); a new description comes rendered too. */
export const channelFolderUpdateEvent = apiSchema(
  'ChannelFolderUpdateEvent',
  z.object({
    ...withOp('channel_folder', 'update'),
    channel_folder_id: int(),
    data: z.object({
      name: z.string().optional(),
      description: z.string().optional(),
      rendered_description: z.string().optional(),
      is_archived: z.boolean().optional(),
    }),
  }),
);
/** `channel_folder` reorder: every folder id of the organization in its new order (PATCH /channel_folders). */
export const channelFolderReorderEvent = apiSchema(
  'ChannelFolderReorderEvent',
  z.object({ ...withOp('channel_folder', 'reorder'), order: z.array(int()) }),
);

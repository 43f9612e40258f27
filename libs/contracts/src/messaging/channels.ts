import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { groupSettingChangeSchema, groupSettingValueSchema, perSettingOf } from '../users-groups/user-groups';

/** A channel's group-based permissions (Zulip's stream_permission_group_settings), in Zulip's order. */
export const CHANNEL_PERMISSION_SETTING_NAMES = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelPermissionSettingName = (typeof CHANNEL_PERMISSION_SETTING_NAMES)[number];

const perChannelSetting = <S>(make: () => S) => perSettingOf(CHANNEL_PERMISSION_SETTING_NAMES, make);

/** A channel as GET /streams lists it (Zulip's BasicChannel). */
export const channelSchema = apiSchema(
  'Channel',
  z.object({
    stream_id: int(),
    name: z.string(),
    description: z.string(),
    rendered_description: z.string(),
    date_created: int(),
    creator_id: int().nullable(),
    invite_only: z.boolean(),
    is_web_public: z.boolean(),
    history_public_to_subscribers: z.boolean(),
    first_message_id: int().nullable(),
    message_retention_days: int().nullable(),
    stream_post_policy: int(),
    is_announcement_only: z.boolean(),
    is_archived: z.boolean(),
    stream_weekly_traffic: int().nullable(),
    folder_id: int().nullable(),
    is_recently_active: z.boolean(),
    subscriber_count: int(),
    ...perChannelSetting(() => groupSettingValueSchema),
  }),
);
export type ChannelRecord = z.output<typeof channelSchema>;

/** A subscription as GET /users/me/subscriptions lists it: the channel and the caller's settings for it. */
export const subscriptionSchema = apiSchema(
  'Subscription',
  channelSchema.extend({
    color: z.string(),
    is_muted: z.boolean(),
    in_home_view: z.boolean(),
    pin_to_top: z.boolean(),
    desktop_notifications: z.boolean().nullable(),
    audible_notifications: z.boolean().nullable(),
    push_notifications: z.boolean().nullable(),
    email_notifications: z.boolean().nullable(),
    wildcard_mentions_notify: z.boolean().nullable(),
    /** With include_subscribers. */
    subscribers: z.array(int()).optional(),
  }),
);
export type SubscriptionRecord = z.output<typeof subscriptionSchema>;

const channelRequest = z.object({ name: z.string(), description: z.string().optional() }).strict();
const principal = z.union([z.number().int(), z.string()]);

export const subscribeParams = {
  subscriptions: param.json(z.array(channelRequest)),
  principals: param.json(z.array(principal)).optional(),
  authorization_errors_fatal: param.bool().default(true),
  announce: param.bool().default(false),
  invite_only: param.bool().default(false),
  is_web_public: param.bool().default(false),
  is_default_stream: param.bool().default(false),
  history_public_to_subscribers: param.bool().optional(),
  /** For channels this request creates: their folder and permission groups (Zulip's defaults otherwise). */
  folder_id: param.json(z.number().int().nullable()).optional(),
  ...perChannelSetting(() => param.json(groupSettingValueSchema).optional()),
};

/** Per user (by the email the API shows), the channel names. */
const namesByUser = z.record(z.string(), z.array(z.string()));

export const subscribe = defineApiCommand('messaging', 'subscribe', {
  route: 'POST /users/me/subscriptions',
  summary: 'Subscribes the caller (or `principals`) to channels, creating the ones that do not exist yet.',
  params: subscribeParams,
  response: z.object({
    subscribed: namesByUser,
    already_subscribed: namesByUser,
    /** With authorization_errors_fatal=false: the private channels the caller may not subscribe to. */
    unauthorized: z.array(z.string()).optional(),
  }),
});
export type SubscribeResult = z.output<typeof subscribe.response>;

export const unsubscribeParams = {
  subscriptions: param.json(z.array(z.string())),
  principals: param.json(z.array(principal)).optional(),
};

export const unsubscribe = defineApiCommand('messaging', 'unsubscribe', {
  route: 'DELETE /users/me/subscriptions',
  summary: 'Unsubscribes the caller (or `principals`) from channels.',
  params: unsubscribeParams,
  response: z.object({ removed: z.array(z.string()), not_removed: z.array(z.string()) }),
});

export const listSubscriptionsParams = {
  include_subscribers: param.bool().default(false),
};

export const listSubscriptions = defineApiCommand('messaging', 'list_subscriptions', {
  route: 'GET /users/me/subscriptions',
  summary: "The caller's subscriptions.",
  params: listSubscriptionsParams,
  response: z.object({ subscriptions: z.array(subscriptionSchema) }),
});

export const listChannelsParams = {
  include_public: param.bool().default(true),
  include_web_public: param.bool().default(false),
  include_subscribed: param.bool().default(true),
  exclude_archived: param.bool().default(true),
  include_all_active: param.bool().default(false),
  include_all: param.bool().default(false),
  include_default: param.bool().default(false),
  include_owner_subscribed: param.bool().default(false),
  include_can_access_content: param.bool().default(false),
};

export const listChannels = defineApiCommand('messaging', 'list_channels', {
  route: 'GET /streams',
  summary: 'The channels the caller may see, filtered by the include_* parameters.',
  params: listChannelsParams,
  // `is_default` only with include_default, as Zulip's do_get_streams adds it.
  response: z.object({ streams: z.array(channelSchema.extend({ is_default: z.boolean().optional() })) }),
});

const propertyChange = z
  .object({ stream_id: z.number().int(), property: z.string(), value: z.union([z.boolean(), z.string()]) })
  .strict();

export const updateSubscriptionPropertiesParams = {
  subscription_data: param.json(z.array(propertyChange)),
};

export const updateSubscriptionProperties = defineApiCommand('messaging', 'update_subscription_properties', {
  route: 'POST /users/me/subscriptions/properties',
  summary: "Changes the caller's settings for channels they are subscribed to (color, muting, notifications, …).",
  params: updateSubscriptionPropertiesParams,
  response: emptyResponse,
});

const channelPath = { stream_id: param.int() };

export const getChannelParams = channelPath;

export const getChannel = defineApiCommand('messaging', 'get_channel', {
  route: 'GET /streams/{stream_id}',
  summary: 'One channel the caller may see.',
  params: getChannelParams,
  response: z.object({ stream: channelSchema }),
});

export const updateChannelParams = {
  ...channelPath,
  new_name: param.string().optional(),
  description: param.string().optional(),
  is_private: param.bool().optional(),
  is_web_public: param.bool().optional(),
  history_public_to_subscribers: param.bool().optional(),
  /** Days, or "unlimited" / "realm_default". */
  message_retention_days: param.json(z.union([z.number().int(), z.enum(['unlimited', 'realm_default'])])).optional(),
  /** A folder's id, or null for none. */
  folder_id: param.json(z.number().int().nullable()).optional(),
  ...perChannelSetting(() => param.json(groupSettingChangeSchema).optional()),
};

export const updateChannel = defineApiCommand('messaging', 'update_channel', {
  route: 'PATCH /streams/{stream_id}',
  summary: "Changes a channel's name, description, privacy, retention, folder or permission settings.",
  params: updateChannelParams,
  response: emptyResponse,
});

export const archiveChannelParams = channelPath;

export const archiveChannel = defineApiCommand('messaging', 'archive_channel', {
  route: 'DELETE /streams/{stream_id}',
  summary: 'Archives a channel.',
  params: archiveChannelParams,
  response: emptyResponse,
});

/** A channel or user id in a path: digits only, like Zulip's `<int:…>` (else no route matches). */
const pathId = () => param.json(z.number().int().min(0));

export const createChannelParams = {
  name: param.string(),
  /** The new channel's description (empty when left out), as in Zulip's create_channel. */
  description: param.string().default(''),
  /** The users to subscribe (the caller only if listed). */
  subscribers: param.intList(),
  announce: param.bool().default(false),
  invite_only: param.bool().default(false),
  is_web_public: param.bool().default(false),
  is_default_stream: param.bool().default(false),
  history_public_to_subscribers: param.bool().optional(),
  folder_id: param.json(z.number().int().nullable()).optional(),
  ...perChannelSetting(() => param.json(groupSettingValueSchema).optional()),
};

export const createChannel = defineApiCommand('messaging', 'create_channel', {
  route: 'POST /channels/create',
  summary: 'Creates a channel and subscribes `subscribers` to it, by the channel-creation rules of POST /users/me/subscriptions.',
  params: createChannelParams,
  response: z.object({ id: int() }),
});

export const getChannelIdParams = { stream: param.string() };

export const getChannelId = defineApiCommand('messaging', 'get_channel_id', {
  route: 'GET /get_stream_id',
  summary: 'The id of the channel of that name, if the caller may see it.',
  params: getChannelIdParams,
  response: z.object({ stream_id: int() }),
});

export const getChannelSubscribersParams = { stream_id: pathId() };

export const getChannelSubscribers = defineApiCommand('messaging', 'get_channel_subscribers', {
  route: 'GET /streams/{stream_id}/members',
  summary: "The ids of a channel's active subscribers whose accounts are active.",
  params: getChannelSubscribersParams,
  response: z.object({ subscribers: z.array(int()) }),
});

export const getSubscriptionStatusParams = { user_id: pathId(), stream_id: pathId() };

export const getSubscriptionStatus = defineApiCommand('messaging', 'get_subscription_status', {
  route: 'GET /users/{user_id}/subscriptions/{stream_id}',
  summary: 'Whether a user is subscribed to a channel the caller may see.',
  params: getSubscriptionStatusParams,
  response: z.object({ is_subscribed: z.boolean() }),
});

export const getChannelEmailAddressParams = {
  stream_id: pathId(),
  /** Only the caller (the default sender, the email gateway bot, does not exist here). */
  sender_id: param.int().optional(),
};

export const getChannelEmailAddress = defineApiCommand('messaging', 'get_channel_email_address', {
  route: 'GET /streams/{stream_id}/email_address',
  summary: "The channel's incoming email address (`<name>.<token>@<EMAIL_GATEWAY_DOMAIN>`).",
  params: getChannelEmailAddressParams,
  response: z.object({ email: z.string() }),
});

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/** A channel as GET /streams lists it (Zulip's BasicChannel, less the group settings). */
export interface ChannelRecord {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  message_retention_days: number | null;
  stream_post_policy: number;
  is_announcement_only: boolean;
  is_archived: boolean;
  stream_weekly_traffic: number | null;
  folder_id: number | null;
  is_recently_active: boolean;
  subscriber_count: number;
}

/** A subscription as GET /users/me/subscriptions lists it. */
export interface SubscriptionRecord extends ChannelRecord {
  color: string;
  is_muted: boolean;
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  subscribers?: number[];
}

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
};

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/** POST /users/me/subscriptions: subscribe, creating the channels that do not exist yet. */
export const subscribe = defineApiCommand<typeof subscribeParams, SubscribeResult>('messaging', 'subscribe', subscribeParams);

export const unsubscribeParams = {
  subscriptions: param.json(z.array(z.string())),
  principals: param.json(z.array(principal)).optional(),
};

/** DELETE /users/me/subscriptions. */
export const unsubscribe = defineApiCommand<typeof unsubscribeParams, { removed: string[]; not_removed: string[] }>(
  'messaging',
  'unsubscribe',
  unsubscribeParams,
);

export const listSubscriptionsParams = {
  include_subscribers: param.bool().default(false),
};

/** GET /users/me/subscriptions. */
export const listSubscriptions = defineApiCommand<typeof listSubscriptionsParams, { subscriptions: SubscriptionRecord[] }>(
  'messaging',
  'list_subscriptions',
  listSubscriptionsParams,
);

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

/** GET /streams. */
export const listChannels = defineApiCommand<typeof listChannelsParams, { streams: ChannelRecord[] }>(
  'messaging',
  'list_channels',
  listChannelsParams,
);

const propertyChange = z
  .object({ stream_id: z.number().int(), property: z.string(), value: z.union([z.boolean(), z.string()]) })
  .strict();

export const updateSubscriptionPropertiesParams = {
  subscription_data: param.json(z.array(propertyChange)),
};

/** POST /users/me/subscriptions/properties. */
export const updateSubscriptionProperties = defineApiCommand<typeof updateSubscriptionPropertiesParams, Record<string, never>>(
  'messaging',
  'update_subscription_properties',
  updateSubscriptionPropertiesParams,
);

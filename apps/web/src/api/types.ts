import type { Schema } from './typed-client';

/** The shapes the app reads from the server's answers and events (Zulip's API). */
export interface Message {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  /** The channel's name, or the conversation's people. */
  display_recipient: string | { id: number; email: string; full_name: string }[];
  stream_id?: number;
  subject: string;
  content: string;
  timestamp: number;
  flags?: string[];
  reactions?: Reaction[];
  /** Set once the message was edited. */
  last_edit_timestamp?: number;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color: string;
  is_muted?: boolean;
  pin_to_top?: boolean;
  /** The channel's folder, if any. */
  folder_id?: number | null;
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  push_notifications?: boolean | null;
  email_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
}

/** A channel folder (channel_folders, the `channel_folder` events). */
export type ChannelFolder = Schema<'ChannelFolder'>;

/** A navigation view: a built-in one's pinning, or one the user added (with a name). */
export type NavigationView = Schema<'NavigationView'>;

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  /** The real address, where the viewer may see it. */
  delivery_email?: string;
  is_active?: boolean;
  is_bot: boolean;
  /** Zulip's role: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
  role?: number;
}

/** A user group (realm_user_groups, the `user_group` events). */
export type UserGroup = Schema<'UserGroup'>;

/** Zulip's group-setting value: one group's id, or an anonymous group of members and subgroups. */
export type GroupSettingValue = Schema<'GroupSettingValue'>;

/** When a user was last active and last idle (Zulip's modern presence format, Unix seconds). */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** A user's status: text and emoji (each absent when unset). */
export type UserStatus = Schema<'UserStatus'>;

/** Which messages are unread (`unread_msgs`). */
export type UnreadMessages = Schema<'UnreadMessages'>;

/** A draft kept on the server (GET /drafts, the `drafts` events). */
export type Draft = Schema<'Draft'>;

/** A message to be sent later (`scheduled_messages`). */
export type ScheduledMessage = Schema<'ScheduledMessage'>;

export interface RegisterAnswer {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  email: string;
  full_name: string;
  subscriptions: Subscription[];
  realm_users: User[];
  realm_user_groups?: UserGroup[];
  channel_folders?: ChannelFolder[];
  navigation_views?: NavigationView[];
  presences?: Record<string, Presence>;
  server_timestamp?: number;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
  user_status?: Record<string, UserStatus>;
  unread_msgs: UnreadMessages;
  realm_name?: string;
  is_admin?: boolean;
  drafts?: Draft[];
  user_topics?: { stream_id: number; topic_name: string; visibility_policy: number }[];
  scheduled_messages?: ScheduledMessage[];
  user_settings?: { color_scheme?: number; full_name?: string } & Record<string, unknown>;
  delivery_email?: string;
  realm_user_settings_defaults?: Record<string, unknown>;
  realm_allow_message_editing?: boolean;
  realm_can_move_messages_between_topics_group?: GroupSettingValue;
  realm_can_move_messages_between_channels_group?: GroupSettingValue;
  server_typing_started_wait_period_milliseconds?: number;
  server_typing_stopped_wait_period_milliseconds?: number;
  server_typing_started_expiry_period_milliseconds?: number;
}

export interface ServerEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

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
export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  is_archived: boolean;
  order: number;
}

/** A navigation view: a built-in one's pinning, or one the user added (with a name). */
export interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name?: string;
}

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
export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids?: number[];
  is_system_group: boolean;
  deactivated?: boolean;
  /** Who may mention the group: a group's id, or people and groups named directly. */
  can_mention_group?: GroupSettingValue;
}

/** Zulip's group-setting value: one group's id, or an anonymous group of members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** When a user was last active and last idle (Zulip's modern presence format, Unix seconds). */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** A user's status: text and emoji (each absent when unset). */
export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export interface UnreadMessages {
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  pms: { other_user_id: number; unread_message_ids: number[] }[];
  huddles?: { user_ids_string: string; unread_message_ids: number[] }[];
}

/** A draft kept on the server (GET /drafts, the `drafts` events). */
export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  /** The channel's id, or the people's. */
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A message to be sent later (`scheduled_messages`). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

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

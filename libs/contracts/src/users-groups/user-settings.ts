import { param, type ParamSpec } from '@teamchat/zulip';
import { LANGUAGE_CODES } from './languages';

/** Where a setting may be changed: PATCH /settings (S), PATCH /realm/user_settings_defaults (D). */
type Endpoints = 'both' | 'defaults-only' | 'settings-only';

/** The two endpoints that change settings: a user's own (S) and the organization's defaults (D). */
export type SettingsEndpoint = 'settings' | 'defaults';

interface SettingDef<T> {
  /** How the value arrives on the wire (its type); `isValid` then checks the allowed values. */
  param: ParamSpec<T, true>;
  isValid: (value: T) => boolean;
  default: T;
  endpoints: Endpoints;
}

const flag = (value: boolean, endpoints: Endpoints = 'both'): SettingDef<boolean> => ({
  param: param.bool(),
  isValid: () => true,
  default: value,
  endpoints,
});
const choice = (values: number[], value: number, endpoints: Endpoints = 'both'): SettingDef<number> => ({
  param: param.int(),
  isValid: (v) => values.includes(v),
  default: value,
  endpoints,
});
/** The bundled notification sounds: what `notification_sound` accepts besides "none". */
export const NOTIFICATION_SOUNDS = ['chime', 'ding', 'zulip'];

const text = (values: string[], value: string, endpoints: Endpoints = 'both'): SettingDef<string> => ({
  param: param.string(),
  isValid: (v) => values.includes(v),
  default: value,
  endpoints,
});
const integer = (value: number, isValid: (v: number) => boolean = () => true): SettingDef<number> => ({
  param: param.int(),
  isValid,
  default: value,
  endpoints: 'both',
});

/**
 * Every personal setting with Zulip's default for a new organization (zerver/models/users.py).
 * Owned by users-groups; shared so that other services read settings with the same defaults.
 * A new user starts from their organization's defaults, which start from these.
 */
export const USER_SETTINGS = {
  // Not an organization default in Zulip's API: `realm_user_settings_defaults` shows it, D ignores it.
  default_language: text([...LANGUAGE_CODES], 'en', 'settings-only'),
  twenty_four_hour_time: flag(false),
  web_mark_read_on_scroll_policy: choice([1, 2, 3], 1),
  web_channel_default_view: choice([1, 2, 3, 4], 1),
  starred_message_counts: flag(true),
  receives_typing_notifications: flag(true),
  web_suggest_update_timezone: flag(true),
  fluid_layout_width: flag(false),
  high_contrast_mode: flag(false),
  // Zulip checks no bounds on these two.
  web_font_size_px: integer(16),
  web_line_height_percent: integer(140),
  color_scheme: choice([1, 2, 3], 1),
  enable_drafts_synchronization: flag(true),
  translate_emoticons: flag(false),
  display_emoji_reaction_users: flag(true),
  web_home_view: text(['recent_topics', 'inbox', 'all_messages'], 'inbox'),
  web_escape_navigates_to_home_view: flag(true),
  left_side_userlist: flag(false),
  emojiset: text(['google', 'google-blob', 'twitter', 'text'], 'google'),
  demote_inactive_streams: choice([1, 2, 3], 1),
  user_list_style: choice([1, 2, 3], 3),
  web_animate_image_previews: text(['always', 'on_hover', 'never'], 'on_hover'),
  web_stream_unreads_count_display_policy: choice([1, 2, 3], 2),
  hide_ai_features: flag(false),
  web_left_sidebar_show_channel_folders: flag(true),
  web_left_sidebar_unreads_count_summary: flag(true),
  enable_stream_desktop_notifications: flag(false),
  enable_stream_email_notifications: flag(false),
  enable_stream_push_notifications: flag(false),
  enable_stream_audible_notifications: flag(false),
  notification_sound: text(['none', ...NOTIFICATION_SOUNDS], 'zulip'),
  enable_desktop_notifications: flag(true),
  enable_sounds: flag(true),
  email_notifications_batching_period_seconds: integer(120, (v) => v >= 1 && v <= 604800),
  enable_offline_email_notifications: flag(true),
  enable_offline_push_notifications: flag(true),
  enable_online_push_notifications: flag(true),
  enable_followed_topic_desktop_notifications: flag(true),
  enable_followed_topic_email_notifications: flag(true),
  enable_followed_topic_push_notifications: flag(true),
  enable_followed_topic_audible_notifications: flag(true),
  enable_digest_emails: flag(true),
  message_content_in_email_notifications: flag(true),
  pm_content_in_desktop_notifications: flag(true),
  wildcard_mentions_notify: flag(true),
  enable_followed_topic_wildcard_mentions_notify: flag(true),
  desktop_icon_count_display: choice([1, 2, 3, 4], 1),
  realm_name_in_email_notifications_policy: choice([1, 2, 3], 1),
  automatically_follow_topics_policy: choice([1, 2, 3, 4], 3),
  automatically_unmute_topics_in_muted_streams_policy: choice([1, 2, 3, 4], 2),
  automatically_follow_topics_where_mentioned: flag(true),
  resolved_topic_notice_auto_read_policy: text(['always', 'except_followed', 'never'], 'except_followed'),
  presence_enabled: flag(true),
  enter_sends: flag(false),
  send_private_typing_notifications: flag(true),
  send_stream_typing_notifications: flag(true),
  send_read_receipts: flag(true),
  email_address_visibility: choice([1, 2, 3, 4, 5], 1),
  web_navigate_to_sent_message: flag(true),
  /**
   * Whether administrators may export the user's private data (GET /export/realm/consents, export
   * type 2). Shown in both objects; Zulip's PATCH /realm/user_settings_defaults does not take it.
   */
  allow_private_data_export: flag(false, 'settings-only'),
  /**
   * Whether the user is mailed of each new login, and Zulip's marketing mail. Shown in both
   * objects; Zulip's PATCH /realm/user_settings_defaults does not take them (a security setting is
   * the user's own; the sign-up form's choice wins over an organization default).
   */
  enable_login_emails: flag(true, 'settings-only'),
  enable_marketing_emails: flag(true, 'settings-only'),
} satisfies Record<string, SettingDef<boolean> | SettingDef<number> | SettingDef<string>>;

export type SettingName = keyof typeof USER_SETTINGS;

/** The settings an endpoint changes: S takes "Both" and "S" rows, D takes "Both" and "D" rows. */
export function settingsChangedBy(endpoint: SettingsEndpoint): SettingName[] {
  const excluded: Endpoints = endpoint === 'settings' ? 'defaults-only' : 'settings-only';
  return (Object.keys(USER_SETTINGS) as SettingName[]).filter((name) => USER_SETTINGS[name].endpoints !== excluded);
}

export type UserSettings = { [K in SettingName]: (typeof USER_SETTINGS)[K]['default'] };

/** Zulip's defaults, the starting point of every organization's defaults. */
export function builtinSettingDefaults(): UserSettings {
  return { ...BUILTIN_DEFAULTS };
}

/** Built once: every message sent resolves its sender's settings over these. */
const BUILTIN_DEFAULTS: Readonly<UserSettings> = Object.freeze(
  Object.fromEntries(Object.entries(USER_SETTINGS).map(([name, def]) => [name, def.default])) as UserSettings,
);

/**
 * A user's effective settings: what is stored, over the organization's defaults, over Zulip's.
 * Stored JSON may predate a setting added later; the layers fill it in.
 */
export function resolveSettings(...layers: unknown[]): UserSettings {
  const merged: Record<string, unknown> = builtinSettingDefaults();
  for (const layer of layers) {
    if (!layer || typeof layer !== 'object') continue;
    for (const [name, value] of Object.entries(layer)) {
      if (name in USER_SETTINGS) merged[name] = value;
    }
  }
  return merged as UserSettings;
}

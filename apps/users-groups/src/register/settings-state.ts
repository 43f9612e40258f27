import { NOTIFICATION_SOUNDS, resolveSettings, type UserSettings } from '@teamchat/contracts';

/** Zulip's emoji sets with their labels, in its order (UserProfile.EMOJISET_CHOICES). */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** The organization's language (`realm_default_language`): not a stored setting yet, Zulip's default. */
export const DEFAULT_LANGUAGE = 'en';

/** The settings Zulip also copies to the top level for clients without `user_settings_object`. */
const LEGACY_DISPLAY_SETTINGS = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'fluid_layout_width',
  'web_home_view',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'timezone',
  'translate_emoticons',
  'twenty_four_hour_time',
  'enter_sends',
  'emojiset_choices',
] as const;
const LEGACY_NOTIFICATION_SETTINGS = [
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'presence_enabled',
  'available_notification_sounds',
] as const;

type SettingsObject = UserSettings & Record<string, unknown>;

/** The organization's defaults for new users, as `realm_user_settings_defaults`. */
export function settingsDefaultsState(realmDefaults: unknown): SettingsObject {
  return {
    ...resolveSettings(realmDefaults),
    emojiset_choices: EMOJISET_CHOICES,
    available_notification_sounds: NOTIFICATION_SOUNDS,
  };
}

/** The caller's settings, as the `user_settings` object: stored, over the organization's, over Zulip's. */
export function userSettingsState(user: { settings: unknown; timezone: string }, realmDefaults: unknown): SettingsObject {
  return {
    ...resolveSettings(realmDefaults, user.settings),
    timezone: user.timezone,
    emojiset_choices: EMOJISET_CHOICES,
    available_notification_sounds: NOTIFICATION_SOUNDS,
  };
}

/**
 * The deprecated top-level copies (fetch keys `update_display_settings` and
 * `update_global_notifications`), for clients that did not declare `user_settings_object`.
 */
export function legacySettingsState(settings: SettingsObject, display: boolean, notifications: boolean): Record<string, unknown> {
  const names = [...(display ? LEGACY_DISPLAY_SETTINGS : []), ...(notifications ? LEGACY_NOTIFICATION_SETTINGS : [])];
  return Object.fromEntries(names.map((name) => [name, settings[name]]));
}

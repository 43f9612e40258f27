import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { USER_SETTINGS, type SettingName } from '../users-groups/user-settings';

// POST /register's personal settings and the organization's defaults for new users;
// register-response.ts re-exports them.

// Personal settings: generated from the catalogue, each setting by its value's type.

type SettingSchema<K extends SettingName> = (typeof USER_SETTINGS)[K]['default'] extends boolean
  ? z.ZodBoolean
  : (typeof USER_SETTINGS)[K]['default'] extends number
    ? z.ZodNumber
    : z.ZodString;

function settingSchema(name: SettingName): z.ZodBoolean | z.ZodNumber | z.ZodString {
  const value: unknown = USER_SETTINGS[name].default;
  if (typeof value === 'boolean') return z.boolean();
  if (typeof value === 'number') return int();
  return z.string();
}

/** Every setting of the catalogue, by the type of its value. */
const settingShape = Object.fromEntries(
  (Object.keys(USER_SETTINGS) as SettingName[]).map((name) => [name, settingSchema(name)]),
) as { [K in SettingName]: SettingSchema<K> };

/** The names of the catalogue's settings whose values are of one type. */
export const settingNamesOfType = (type: 'boolean' | 'number' | 'string'): SettingName[] =>
  (Object.keys(USER_SETTINGS) as SettingName[]).filter((name) => typeof USER_SETTINGS[name].default === type);

/** Zulip's emoji sets with their labels (UserProfile.EMOJISET_CHOICES). */
const emojisetChoices = z.array(z.object({ key: z.string(), text: z.string() }));

/** The organization's defaults for new users, as `realm_user_settings_defaults`. */
export const realmUserSettingsDefaultsSchema = apiSchema(
  'RealmUserSettingsDefaults',
  z.object({
    ...settingShape,
    /** The emoji sets `emojiset` accepts, with their labels. */
    emojiset_choices: emojisetChoices,
    /** The sounds `notification_sound` accepts besides "none". */
    available_notification_sounds: z.array(z.string()),
  }),
);

/**
 * The caller's personal settings, as `user_settings`: what is stored, over the organization's
 * defaults, over Zulip's; every setting is always present.
 */
export const userSettingsSchema = apiSchema(
  'UserSettings',
  realmUserSettingsDefaultsSchema.extend({
    /** The caller's time zone (IANA name), "" when unset. */
    timezone: z.string(),
  }),
);
export type UserSettingsRecord = z.output<typeof userSettingsSchema>;

/** The settings Zulip also copies to the top level for clients without `user_settings_object` (fetch key `update_display_settings`). */
const LEGACY_DISPLAY_SETTINGS = {
  color_scheme: true,
  default_language: true,
  demote_inactive_streams: true,
  emojiset: true,
  enable_drafts_synchronization: true,
  fluid_layout_width: true,
  web_home_view: true,
  high_contrast_mode: true,
  left_side_userlist: true,
  starred_message_counts: true,
  timezone: true,
  translate_emoticons: true,
  twenty_four_hour_time: true,
  enter_sends: true,
  emojiset_choices: true,
} as const;

/** The same, fetch key `update_global_notifications`. */
const LEGACY_NOTIFICATION_SETTINGS = {
  enable_desktop_notifications: true,
  enable_digest_emails: true,
  enable_login_emails: true,
  enable_marketing_emails: true,
  email_notifications_batching_period_seconds: true,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: true,
  enable_stream_email_notifications: true,
  enable_stream_push_notifications: true,
  enable_stream_audible_notifications: true,
  wildcard_mentions_notify: true,
  message_content_in_email_notifications: true,
  notification_sound: true,
  pm_content_in_desktop_notifications: true,
  desktop_icon_count_display: true,
  realm_name_in_email_notifications_policy: true,
  presence_enabled: true,
  available_notification_sounds: true,
} as const;

/** The names of the deprecated top-level copies, per fetch key (users-groups builds them from these). */
export const LEGACY_DISPLAY_SETTING_NAMES = Object.keys(LEGACY_DISPLAY_SETTINGS) as (keyof typeof LEGACY_DISPLAY_SETTINGS)[];
export const LEGACY_NOTIFICATION_SETTING_NAMES = Object.keys(LEGACY_NOTIFICATION_SETTINGS) as (keyof typeof LEGACY_NOTIFICATION_SETTINGS)[];

/** Deprecated top-level copies of `user_settings` keys, for clients without `user_settings_object`. */
export const legacySettingsShape = userSettingsSchema.pick({ ...LEGACY_DISPLAY_SETTINGS, ...LEGACY_NOTIFICATION_SETTINGS }).partial().shape;

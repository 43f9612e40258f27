import { NOTIFICATION_SOUNDS, Realtime, resolveSettings, type UserSettings } from '@teamchat/contracts';

/** Zulip's emoji sets with their labels, in its order (UserProfile.EMOJISET_CHOICES). */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** The organization's language (`realm_default_language`): not a stored setting yet, Zulip's default. */
export const DEFAULT_LANGUAGE = 'en';

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
  // Which keys: the register answer's own lists (libs/contracts register-settings).
  const names = [...(display ? Realtime.LEGACY_DISPLAY_SETTING_NAMES : []), ...(notifications ? Realtime.LEGACY_NOTIFICATION_SETTING_NAMES : [])];
  return Object.fromEntries(names.map((name) => [name, settings[name]]));
}

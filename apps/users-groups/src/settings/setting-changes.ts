import { USER_SETTINGS, settingsChangedBy, type SettingName, type SettingsEndpoint } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';

/**
 * The settings Zulip checks in its view body (check_settings_values), after every other
 * parameter has passed its own check while being read, in this order.
 */
const CHECKED_LAST: SettingName[] = ['default_language', 'notification_sound', 'email_notifications_batching_period_seconds'];

/** Zulip's text for a value a setting does not allow. */
function invalidText(name: SettingName, value: unknown): string {
  if (name === 'email_notifications_batching_period_seconds') return `Invalid email batching period: ${String(value)} seconds`;
  if (name === 'notification_sound') return `Invalid notification sound '${String(value)}'`;
  return `Invalid ${name}`;
}

/**
 * The catalogue's settings `params` changes through `endpoint` (PATCH /settings or PATCH
 * /realm/user_settings_defaults), each value checked against the catalogue: the one rule both
 * endpoints follow. The first value not allowed is refused with Zulip's text; nothing else is
 * looked at (the gateway has already checked each value's type).
 */
export function settingChanges(params: Record<string, unknown>, endpoint: SettingsEndpoint): Partial<Record<SettingName, unknown>> {
  const names = settingsChangedBy(endpoint).filter((name) => params[name] !== undefined);
  const ordered = [...names.filter((name) => !CHECKED_LAST.includes(name)), ...CHECKED_LAST.filter((name) => names.includes(name))];
  const changes: Partial<Record<SettingName, unknown>> = {};
  for (const name of ordered) {
    const def = USER_SETTINGS[name] as { isValid: (value: unknown) => boolean };
    if (!def.isValid(params[name])) throw badRequest(invalidText(name, params[name]));
    changes[name] = params[name];
  }
  return changes;
}

import { z } from 'zod';
import { param, type ParamSpecs } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { USER_SETTINGS, settingsChangedBy, type SettingsEndpoint } from './user-settings';

/** The catalogue's settings an endpoint changes, as its parameters. */
const settingParams = (endpoint: SettingsEndpoint) =>
  Object.fromEntries(settingsChangedBy(endpoint).map((name) => [name, USER_SETTINGS[name].param.optional()])) as ParamSpecs;

export const updateSettingsParams: ParamSpecs = {
  ...settingParams('settings'),
  full_name: param.string().optional(),
  timezone: param.string().optional(),
  /** Starts an email change: a confirmation link goes to the new address. */
  email: param.string().optional(),
  old_password: param.string().optional(),
  new_password: param.string().optional(),
};

export const updateSettings = defineApiCommand('users-groups', 'update_settings', {
  route: 'PATCH /settings',
  summary: "Changes the caller's own settings and account (full name, time zone, password, email address).",
  params: updateSettingsParams,
  response: emptyResponse,
});

export const updateRealmUserSettingsDefaults = defineApiCommand('users-groups', 'update_realm_user_settings_defaults', {
  route: 'PATCH /realm/user_settings_defaults',
  summary: "Changes the organization's default settings for new users (administrators only).",
  params: settingParams('defaults'),
  response: emptyResponse,
});

/** Where the link mailed to a new address leads (on the organization's host), followed by the key. */
export const CONFIRM_NEW_EMAIL_PATH = '/accounts/confirm_new_email';

/** What following an email-change link did (the gateway shows it as a page). */
export interface EmailChangeConfirmed {
  realmName: string;
  oldEmail: string;
  newEmail: string;
}

/**
 * Internal, from the gateway's GET /accounts/confirm_new_email/<key> (no API credentials: the
 * key is the proof): applies the pending email change the key names, if it is still valid and
 * belongs to the organization the host selects.
 */
export const confirmEmailChange = defineCommand<{ host: string; key: string; requestId: string }, EmailChangeConfirmed>(
  'users-groups',
  'confirm_email_change',
  z.object({ host: z.string(), key: z.string(), requestId: z.string() }),
);

/**
 * Internal, from presence (POST /users/me/status with the deprecated `away`): sets the user's
 * `presence_enabled` setting, stored and announced (`user_settings` update) as PATCH /settings
 * would. Nothing is announced when the value does not change.
 */
export const setPresenceEnabled = defineCommand<
  { realmId: number; userId: number; enabled: boolean; requestId: string },
  Record<string, never>
>(
  'users-groups',
  'set_presence_enabled',
  z.object({ realmId: z.number().int(), userId: z.number().int(), enabled: z.boolean(), requestId: z.string() }),
);

export const UsersGroupsEvents = {
  /** `user_settings` update events, to the user. */
  userSettingsChanged: defineEvent('users-groups', 'user_settings_changed', clientEventSchema),
  /** `realm_user` update events (e.g. a new full name), to the organization. */
  realmUserChanged: defineEvent('users-groups', 'realm_user_changed', clientEventSchema),
  /** `realm_user_settings_defaults` update events, one per changed default, to every active user. */
  realmUserSettingsDefaultsChanged: defineEvent('users-groups', 'realm_user_settings_defaults_changed', clientEventSchema),
  /** `realm_export_consent` (a user's allow_private_data_export changed), to the active human administrators. */
  realmExportConsentChanged: defineEvent('users-groups', 'realm_export_consent_changed', clientEventSchema),
  /**
   * `user_group` events (add, update, remove, add_members, remove_members, add_subgroups,
   * remove_subgroups), to the organization. A deactivation (`update` with `deactivated: true`)
   * reaches queues without the include_deactivated_groups capability as `remove`, and a
   * reactivation as `add` of `group` (the full record, carried beside the event for them).
   */
  userGroupChanged: defineEvent(
    'users-groups',
    'user_group_changed',
    clientEventSchema.extend({ group: z.record(z.string(), z.unknown()).optional() }),
  ),
};


/**
 * Internal, from push (the unsubscribe link of a missed-message email, followed without
 * logging in): turns the user's `enable_offline_email_notifications` off, stored and announced
 * (`user_settings` update) as PATCH /settings would; nothing is announced when it was off.
 */
export const unsubscribeMissedMessageEmails = defineCommand<{ realmId: number; userId: number; requestId: string }, Record<string, never>>(
  'users-groups',
  'unsubscribe_missed_message_emails',
  z.object({ realmId: z.number().int(), userId: z.number().int(), requestId: z.string() }),
);

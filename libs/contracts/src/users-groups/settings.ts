import { z } from 'zod';
import { param, type ParamSpecs } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { USER_SETTINGS } from './user-settings';

/** Every setting PATCH /settings may change (the "S" and "Both" rows), declared from the catalogue. */
const preferenceParams = Object.fromEntries(
  Object.entries(USER_SETTINGS)
    .filter(([, def]) => def.endpoints === 'both')
    .map(([name, def]) => [name, def.param.optional()]),
) as ParamSpecs;

export const updateSettingsParams: ParamSpecs = {
  ...preferenceParams,
  full_name: param.string().optional(),
  timezone: param.string().optional(),
};

export const updateSettings = defineApiCommand('users-groups', 'update_settings', {
  route: 'PATCH /settings',
  summary: "Changes the caller's own settings and profile (full name, time zone).",
  params: updateSettingsParams,
  response: emptyResponse,
});

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


import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { REACTION_TYPES } from '../presence/status';
import { legacyPresenceEntrySchema, modernPresenceSchema } from '../presence/presence';
import { PUSH_DEVICE_STATUSES } from '../push/devices';
import { GROUP_PERMISSION_SETTING_NAMES, groupSettingValueSchema, perSettingOf, userGroupSchema } from '../users-groups/user-groups';
import { navigationViewSchema } from '../users-groups/navigation-views';
import { REALM_GROUP_SETTING_NAMES, realmDomainSchema } from '../users-groups/realm-settings';
import { userSchema } from '../users-groups/users';
import { realmBotSchema, realmEmojiSchema } from './register-records';
import { settingNamesOfType } from './register-settings';
import { base, withOp } from './client-event-shapes';

// Client events of people: presence, status, push devices, settings, users, user groups,
// navigation views (client-events.ts gathers every topic's events into one union and re-exports them).

/**
 * `presence`: a user is new to presence or came back online. Queues with the
 * `simplified_presence_events` capability get `presences` (modern format, by user id); others
 * the legacy `user_id`, `email`, `server_timestamp` and `presence`.
 */
export const presenceEvent = apiSchema(
  'PresenceEvent',
  z.object({
    ...base('presence'),
    presences: z.record(z.string().regex(/^[0-9]+$/), modernPresenceSchema).optional(),
    user_id: int().optional(),
    email: z.string().optional(),
    server_timestamp: z.number().optional(),
    presence: z.record(z.string(), legacyPresenceEntrySchema).optional(),
  }),
);

/** `user_status`: a user's status changed; only the keys that were passed are present. */
export const userStatusEvent = apiSchema(
  'UserStatusEvent',
  z.object({
    ...base('user_status'),
    user_id: int(),
    /** Deprecated: presence_enabled's opposite. */
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    /** "" when the emoji was cleared. */
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(REACTION_TYPES).optional(),
  }),
);

/** `push_device`: one of the caller's push devices changed registration status (to its owner). */
export const pushDeviceEvent = apiSchema(
  'PushDeviceEvent',
  z.object({
    ...base('push_device'),
    /** The push account ID, as a string. */
    push_account_id: z.string(),
    status: z.enum(PUSH_DEVICE_STATUSES),
    /** With `failed`: the relay's error code (INVALID_BOUNCER_PUBLIC_KEY, REQUEST_EXPIRED, …). */
    error_code: z.string().nullable().optional(),
  }),
);

/** `user_settings` update: one of the recipient's personal settings changed, with its new value. */
export const userSettingsUpdateEvent = apiSchema(
  'UserSettingsUpdateEvent',
  z.union([
    z.object({ ...withOp('user_settings', 'update'), property: z.enum(settingNamesOfType('boolean')), value: z.boolean() }),
    z.object({ ...withOp('user_settings', 'update'), property: z.enum(settingNamesOfType('number')), value: int() }),
    z.object({
      ...withOp('user_settings', 'update'),
      property: z.enum([...settingNamesOfType('string'), 'timezone']),
      value: z.string(),
      /** Only for `default_language`: the language's own name. */
      language_name: z.string().optional(),
    }),
  ]),
);

/** `realm_user` add: a new account, as GET /users shows it to the recipient. */
export const realmUserAddEvent = apiSchema('RealmUserAddEvent', z.object({ ...withOp('realm_user', 'add'), person: userSchema }));

/**
 * `realm_user` update: one thing about a user changed, named by the one key beside `user_id`
 * (Zulip's person shapes): the full name, the role, being active, a custom profile field's
 * value (null when cleared), the real address (null for those who may no longer see it), the
 * API address, the avatar, a bot's owner.
 */
export const realmUserUpdateEvent = apiSchema(
  'RealmUserUpdateEvent',
  z.object({
    ...withOp('realm_user', 'update'),
    person: z.union([
      z.object({ user_id: int(), full_name: z.string() }),
      z.object({ user_id: int(), role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]) }),
      z.object({ user_id: int(), is_active: z.boolean() }),
      z.object({
        user_id: int(),
        custom_profile_field: z.object({ id: int(), value: z.string().nullable(), rendered_value: z.string().optional() }),
      }),
      z.object({ user_id: int(), delivery_email: z.string().nullable() }),
      z.object({ user_id: int(), new_email: z.string() }),
      z.object({ user_id: int(), avatar_source: z.string(), avatar_url: z.string(), avatar_url_medium: z.string(), avatar_version: int() }),
      z.object({ user_id: int(), bot_owner_id: int() }),
    ]),
  }),
);

/** `realm_user_settings_defaults` update: one of the organization's defaults for new users changed. */
export const realmUserSettingsDefaultsUpdateEvent = apiSchema(
  'RealmUserSettingsDefaultsUpdateEvent',
  z.union([
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('boolean')), value: z.boolean() }),
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('number')), value: int() }),
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('string')), value: z.string() }),
  ]),
);

/** `user_group` events: a group added (or reactivated, for clients without include_deactivated_groups), changed, removed. */
export const userGroupAddEvent = apiSchema('UserGroupAddEvent', z.object({ ...withOp('user_group', 'add'), group: userGroupSchema }));
export const userGroupUpdateEvent = apiSchema(
  'UserGroupUpdateEvent',
  z.object({
    ...withOp('user_group', 'update'),
    group_id: int(),
    data: z
      .object({
        name: z.string(),
        description: z.string(),
        deactivated: z.boolean(),
        ...perSettingOf(GROUP_PERMISSION_SETTING_NAMES, () => groupSettingValueSchema),
      })
      .partial(),
  }),
);
export const userGroupRemoveEvent = apiSchema('UserGroupRemoveEvent', z.object({ ...withOp('user_group', 'remove'), group_id: int() }));
const groupMembersEvent = <O extends 'add_members' | 'remove_members'>(op: O) =>
  z.object({ ...withOp('user_group', op), group_id: int(), user_ids: z.array(int()) });
export const userGroupAddMembersEvent = apiSchema('UserGroupAddMembersEvent', groupMembersEvent('add_members'));
export const userGroupRemoveMembersEvent = apiSchema('UserGroupRemoveMembersEvent', groupMembersEvent('remove_members'));
const subgroupsEvent = <O extends 'add_subgroups' | 'remove_subgroups'>(op: O) =>
  z.object({ ...withOp('user_group', op), group_id: int(), direct_subgroup_ids: z.array(int()) });
export const userGroupAddSubgroupsEvent = apiSchema('UserGroupAddSubgroupsEvent', subgroupsEvent('add_subgroups'));
export const userGroupRemoveSubgroupsEvent = apiSchema('UserGroupRemoveSubgroupsEvent', subgroupsEvent('remove_subgroups'));
/** `navigation_view` add: a view the recipient stored (POST /navigation_views). */
export const navigationViewAddEvent = apiSchema(
  'NavigationViewAddEvent',
  z.object({ ...withOp('navigation_view', 'add'), navigation_view: navigationViewSchema }),
);
/** `navigation_view` update: the changed keys of one of the recipient's views (PATCH /navigation_views/{fragment}). */
export const navigationViewUpdateEvent = apiSchema(
  'NavigationViewUpdateEvent',
  z.object({
    ...withOp('navigation_view', 'update'),
    fragment: z.string(),
    data: z.object({ is_pinned: z.boolean().optional(), name: z.string().optional() }),
  }),
);
/** `navigation_view` remove: a view the recipient removed. */
export const navigationViewRemoveEvent = apiSchema(
  'NavigationViewRemoveEvent',
  z.object({ ...withOp('navigation_view', 'remove'), fragment: z.string() }),
);

/** `realm_emoji` update: the organization's custom emoji changed; `realm_emoji` is the whole map by id, deactivated ones included. */
export const realmEmojiUpdateEvent = apiSchema(
  'RealmEmojiUpdateEvent',
  z.object({ ...withOp('realm_emoji', 'update'), realm_emoji: z.record(z.string(), realmEmojiSchema) }),
);

/** `realm_bot` add: a bot the recipient administers (created, or now theirs); the record as `realm_bots` lists it (`owner_id` only when it has one). */
export const realmBotAddEvent = apiSchema(
  'RealmBotAddEvent',
  z.object({ ...withOp('realm_bot', 'add'), bot: realmBotSchema.partial({ owner_id: true }) }),
);
/** `realm_bot` update: the bot's id and the one thing that changed. */
export const realmBotUpdateEvent = apiSchema(
  'RealmBotUpdateEvent',
  z.object({ ...withOp('realm_bot', 'update'), bot: realmBotSchema.omit({ email: true, bot_type: true }).partial().extend({ user_id: int() }) }),
);
/** `realm_bot` delete: the recipient no longer administers the bot (its owner changed). */
export const realmBotDeleteEvent = apiSchema(
  'RealmBotDeleteEvent',
  z.object({ ...withOp('realm_bot', 'delete'), bot: z.object({ user_id: int() }) }),
);
/** `invites_changed`: the set of invitations changed; clients refetch GET /invites. */
export const invitesChangedEvent = apiSchema('InvitesChangedEvent', z.object({ ...base('invites_changed') }));
/**
 * `realm` update: one organization setting changed (Zulip's do_set_realm_property): a text,
 * a flag, or a number (null for "no limit").
 */
export const realmUpdateEvent = apiSchema(
  'RealmUpdateEvent',
  z.object({ ...withOp('realm', 'update'), property: z.string(), value: z.union([z.string(), z.boolean(), int().nullable()]) }),
);

/**
 * `realm` update_dict: settings whose event carries their values in `data` (the message-editing
 * ones, topics_policy with mandatory_topics, the group-based permissions, the icon and logos).
 * `property` is "default", except for the images, where Zulip's server names them: "icon"
 * (icon_url, icon_source), "logo" (logo_url, logo_source), "night_logo" (night_logo_url,
 * night_logo_source), as do_change_icon_source and do_change_logo_source send.
 */
export const realmUpdateDictEvent = apiSchema(
  'RealmUpdateDictEvent',
  z.object({
    ...withOp('realm', 'update_dict'),
    property: z.enum(['default', 'icon', 'logo', 'night_logo']),
    data: z.object({
      allow_message_editing: z.boolean().optional(),
      message_content_edit_limit_seconds: int().nullable().optional(),
      topics_policy: z.string().optional(),
      mandatory_topics: z.boolean().optional(),
      icon_url: z.string().optional(),
      icon_source: z.string().optional(),
      logo_url: z.string().optional(),
      logo_source: z.string().optional(),
      night_logo_url: z.string().optional(),
      night_logo_source: z.string().optional(),
      ...Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((name) => [name, groupSettingValueSchema.optional()])),
    }),
  }),
);

/** `realm_domains`: an allowed email domain added, changed (allow_subdomains) or removed. */
export const realmDomainsAddEvent = apiSchema('RealmDomainsAddEvent', z.object({ ...withOp('realm_domains', 'add'), realm_domain: realmDomainSchema }));
export const realmDomainsChangeEvent = apiSchema(
  'RealmDomainsChangeEvent',
  z.object({ ...withOp('realm_domains', 'change'), realm_domain: realmDomainSchema }),
);
export const realmDomainsRemoveEvent = apiSchema('RealmDomainsRemoveEvent', z.object({ ...withOp('realm_domains', 'remove'), domain: z.string() }));

import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { channelFolderSchema } from '../messaging/channel-folders';
import { channelSchema, subscriptionSchema } from '../messaging/channels';
import { draftSchema } from '../messaging/drafts';
import { userStatusSchema } from '../presence/status';
import { legacyPresenceSchema, modernPresenceSchema } from '../presence/presence';
import { scheduledMessageSchema } from '../scheduler/scheduled-messages';
import { pushDeviceStateSchema } from '../push/devices';
import { navigationViewSchema } from '../users-groups/navigation-views';
import { USER_SETTINGS, type SettingName } from '../users-groups/user-settings';
import { userSchema } from '../users-groups/users';
import { groupSettingValueSchema, userGroupSchema } from '../users-groups/user-groups';
import { REALM_DEFAULTS_UNTIL_FEATURE, REALM_GROUP_SETTINGS_UNTIL_FEATURE } from './defaults-until-feature';

export { groupSettingValueSchema };


// ---------------------------------------------------------------------------------------------
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

/** Deprecated top-level copies of `user_settings` keys, for clients without `user_settings_object`. */
const legacySettingsShape = userSettingsSchema.pick({ ...LEGACY_DISPLAY_SETTINGS, ...LEGACY_NOTIFICATION_SETTINGS }).partial().shape;

// ---------------------------------------------------------------------------------------------
// Records of the initial state.

/**
 * A member as `realm_users` and `realm_non_active_users` list them: GET /users' record without
 * `is_active` (the list says it).
 */
export const realmUserSchema = apiSchema('RealmUser', userSchema.omit({ is_active: true }));

/** A custom profile field as Zulip's CustomProfileField.as_dict writes it. */
export const customProfileFieldSchema = apiSchema(
  'CustomProfileField',
  z.object({
    id: int(),
    name: z.string(),
    /** The field's type: one of the ids of `custom_profile_field_types`. */
    type: int(),
    hint: z.string(),
    /** Type-specific configuration as JSON text (the options of a list, say); "" when none. */
    field_data: z.string(),
    /** Position among the organization's fields. */
    order: int(),
    required: z.boolean(),
    editable_by_user: z.boolean(),
    /** Present (true) only for fields shown in user profile summaries. */
    display_in_profile_summary: z.boolean().optional(),
  }),
);

/** A topic the caller set a visibility policy for (`user_topics`). */
export const userTopicSchema = apiSchema(
  'UserTopic',
  z.object({
    stream_id: int(),
    topic_name: z.string(),
    /** Unix seconds of the last change. */
    last_updated: int(),
    /** 1 muted, 2 unmuted, 3 followed (0, inherit, is never listed). */
    visibility_policy: int(),
  }),
);

const messageIds = () => z.array(int());

/**
 * The caller's unread messages (Zulip's unread_msgs): at most the newest 50,000, grouped by
 * conversation.
 */
export const unreadMessagesSchema = apiSchema(
  'UnreadMessages',
  z.object({
    /** How many unread messages are not muted for the caller. */
    count: int(),
    /** One-on-one conversations (and notes to self), by the other participant. */
    pms: z.array(
      z.object({
        other_user_id: int(),
        /** Deprecated: the same as `other_user_id`. */
        sender_id: int(),
        unread_message_ids: messageIds(),
      }),
    ),
    /** Channel topics. */
    streams: z.array(z.object({ topic: z.string(), stream_id: int(), unread_message_ids: messageIds() })),
    /** Group direct-message conversations, by their participants' ids, comma-separated in ascending order. */
    huddles: z.array(z.object({ user_ids_string: z.string(), unread_message_ids: messageIds() })),
    /** Unread messages that mention the caller (wildcard mentions only where not muted). */
    mentions: messageIds(),
    /** True when there are more unread messages than the ones described. */
    old_unreads_missing: z.boolean(),
  }),
);

/** A custom emoji as `realm_emoji` lists it (Zulip's RealmEmoji). */
export const realmEmojiSchema = apiSchema(
  'RealmEmoji',
  z.object({
    id: z.string(),
    name: z.string(),
    source_url: z.string(),
    /** The still version of an animated emoji; null otherwise. */
    still_url: z.string().nullable(),
    deactivated: z.boolean(),
    author_id: int().nullable(),
  }),
);

/** A bot as `realm_bots` lists it (Zulip's get_owned_bot_dicts). */
export const realmBotSchema = apiSchema(
  'RealmBot',
  z.object({
    user_id: int(),
    full_name: z.string(),
    api_key: z.string(),
    /** Bots' default channels come with the bots feature: null. */
    default_sending_stream: z.string().nullable(),
    default_events_register_stream: z.string().nullable(),
    default_all_public_streams: z.boolean(),
    avatar_url: z.string(),
    owner_id: int().nullable(),
    services: z.array(z.unknown()),
    email: z.string(),
    bot_type: int().nullable(),
    is_active: z.boolean(),
  }),
);

// ---------------------------------------------------------------------------------------------

const permissionSettingDescriptionSchema = z.object({
  require_system_group: z.boolean(),
  allow_internet_group: z.boolean(),
  allow_nobody_group: z.boolean(),
  allow_everyone_group: z.boolean(),
  /** A system group's name, or `group_creator` / `stream_creator_or_nobody`. */
  default_group_name: z.string(),
  default_for_system_groups: z.string().nullable(),
  /** Empty: every system group the flags allow. */
  allowed_system_groups: z.array(z.string()),
});

/** REALM_DEFAULTS_UNTIL_FEATURE's keys, each by its value's type (null and object values are declared one by one). */
const realmDefaultsShape = Object.fromEntries(
  Object.entries(REALM_DEFAULTS_UNTIL_FEATURE).flatMap(([key, value]): [string, z.ZodOptional<z.ZodBoolean | z.ZodNumber | z.ZodString>][] => {
    if (typeof value === 'boolean') return [[key, z.boolean().optional()]];
    if (typeof value === 'number') return [[key, int().optional()]];
    if (typeof value === 'string') return [[key, z.string().optional()]];
    return [];
  }),
) as Record<string, z.ZodOptional<z.ZodBoolean | z.ZodNumber | z.ZodString>>;

const realmGroupDefaultsShape = Object.fromEntries(
  Object.keys(REALM_GROUP_SETTINGS_UNTIL_FEATURE).map((name) => [`realm_${name}`, groupSettingValueSchema.optional()]),
) as Record<`realm_${keyof typeof REALM_GROUP_SETTINGS_UNTIL_FEATURE}`, z.ZodOptional<typeof groupSettingValueSchema>>;

/**
 * The success body of POST /register: the queue, the server's constants and every key of the
 * initial state the owners serve. Which state keys are present depends on fetch_event_types
 * (each is named by the fetch key that brings it) and on the client's capabilities, so all of
 * them are optional.
 */
export const registerResponseSchema = apiSchema(
  'RegisterResponse',
  z.object({
    queue_id: z.string().nullable(),
    /** Always -1: the queue is new. */
    last_event_id: int(),
    zulip_feature_level: int(),
    zulip_version: z.string(),
    zulip_merge_base: z.string(),

    // `realm`: the organization (users-groups) …
    realm_description: z.string().optional(),
    /** Unix seconds. */
    realm_date_created: int().optional(),
    realm_enable_spectator_access: z.boolean().optional(),
    realm_email_changes_disabled: z.boolean().optional(),
    realm_password_auth_enabled: z.boolean().optional(),
    realm_email_auth_enabled: z.boolean().optional(),
    /** Per authentication method (only `Email` so far): whether it is enabled and available. */
    realm_authentication_methods: z
      .record(z.string(), z.object({ enabled: z.boolean(), available: z.boolean(), unavailable_reason: z.string().optional() }))
      .optional(),
    /** Who may use wildcard mentions in large channels and topics. */
    realm_can_mention_many_users_group: groupSettingValueSchema.optional(),
    realm_can_create_groups: groupSettingValueSchema.optional(),
    realm_can_manage_all_groups: groupSettingValueSchema.optional(),
    realm_waiting_period_threshold: int().optional(),
    realm_default_language: z.string().optional(),
    realm_icon_url: z.string().optional(),
    /** "G" for a Gravatar, "U" for an uploaded icon. */
    realm_icon_source: z.string().optional(),
    realm_presence_disabled: z.boolean().optional(),
    realm_is_zephyr_mirror_realm: z.boolean().optional(),
    // … and the server's constants (the gateway).
    realm_name: z.string().optional(),
    realm_url: z.string().optional(),
    /** Deprecated: the same as `realm_url`. */
    realm_uri: z.string().optional(),
    /** How clients show the empty topic ("general chat"). */
    realm_empty_topic_display_name: z.string().optional(),
    max_message_length: int().optional(),
    max_topic_length: int().optional(),
    max_stream_name_length: int().optional(),
    max_stream_description_length: int().optional(),
    max_channel_folder_name_length: int().optional(),
    max_channel_folder_description_length: int().optional(),
    max_file_upload_size_mib: int().optional(),
    max_avatar_file_size_mib: int().optional(),
    /** Above this many new subscribers, they get no notification message each. */
    max_bulk_new_subscription_messages: int().optional(),
    server_typing_started_wait_period_milliseconds: int().optional(),
    server_typing_stopped_wait_period_milliseconds: int().optional(),
    server_typing_started_expiry_period_milliseconds: int().optional(),
    /** The client-side timeout to use for GET /events. */
    event_queue_longpoll_timeout_seconds: int().optional(),
    /** How often clients report presence. */
    server_presence_ping_interval_seconds: int().optional(),
    /** How old a presence report may be before its user shows as offline. */
    server_presence_offline_threshold_seconds: int().optional(),
    // Organization settings of features to come, at Zulip's defaults (REALM_DEFAULTS_UNTIL_FEATURE).
    ...realmDefaultsShape,
    // Message editing, moving and deletion: the organization's settings (users-groups serves them).
    /** Whether senders may edit their messages' content. */
    realm_allow_message_editing: z.boolean().optional(),
    /** How long after sending a message may be edited; null for no limit. */
    realm_message_content_edit_limit_seconds: int().nullable().optional(),
    realm_message_content_delete_limit_seconds: int().nullable().optional(),
    realm_move_messages_within_stream_limit_seconds: int().nullable().optional(),
    realm_move_messages_between_streams_limit_seconds: int().nullable().optional(),
    realm_topics_policy: z.enum(['allow_empty_topic', 'disable_empty_topic']).optional(),
    realm_push_notifications_enabled_end_timestamp: int().nullable().optional(),
    realm_jitsi_server_url: z.string().nullable().optional(),
    server_jitsi_server_url: z.string().nullable().optional(),
    server_min_deactivated_realm_deletion_days: int().nullable().optional(),
    server_max_deactivated_realm_deletion_days: int().nullable().optional(),
    realm_available_video_chat_providers: z.record(z.string(), z.object({ name: z.string(), id: int() })).optional(),
    giphy_rating_options: z.record(z.string(), z.object({ name: z.string(), id: int() })).optional(),
    server_thumbnail_formats: z
      .array(z.object({ name: z.string(), max_width: int(), max_height: int(), format: z.string(), animated: z.boolean() }))
      .optional(),
    /** The organization's host name, which bots' addresses end with. */
    realm_bot_domain: z.string().optional(),
    /** The organization's upload quota; null for none. */
    realm_upload_quota_mib: int().nullable().optional(),
    server_emoji_data_url: z.string().optional(),
    // Permission settings of features to come: their default system group (REALM_GROUP_SETTINGS_UNTIL_FEATURE).
    ...realmGroupDefaultsShape,
    /**
     * How each permission setting behaves (which groups it accepts, its default): `realm` and
     * `group` from users-groups, `stream` from messaging.
     */
    server_supported_permission_settings: z
      .object({
        realm: z.record(z.string(), permissionSettingDescriptionSchema),
        stream: z.record(z.string(), permissionSettingDescriptionSchema),
        group: z.record(z.string(), permissionSettingDescriptionSchema),
      })
      .optional(),
    // What the caller may do (the gateway, from the caller's role).
    can_create_streams: z.boolean().optional(),
    can_create_public_streams: z.boolean().optional(),
    can_create_private_streams: z.boolean().optional(),
    can_create_web_public_streams: z.boolean().optional(),
    can_subscribe_other_users: z.boolean().optional(),
    can_invite_others_to_realm: z.boolean().optional(),

    // `user_settings`, `realm_user_settings_defaults` and the legacy copies.
    user_settings: userSettingsSchema.optional(),
    realm_user_settings_defaults: realmUserSettingsDefaultsSchema.optional(),
    ...legacySettingsShape,

    // `realm_user`: the people and the caller's own identity.
    /** The organization's active users. */
    realm_users: z.array(realmUserSchema).optional(),
    /** Its deactivated users. */
    realm_non_active_users: z.array(realmUserSchema).optional(),
    /** Bots of the server shared by every organization (none here). */
    cross_realm_bots: z.array(userSchema).optional(),
    user_id: int().optional(),
    /** The caller's address as others are shown it. */
    email: z.string().optional(),
    /** The caller's real address. */
    delivery_email: z.string().optional(),
    full_name: z.string().optional(),
    /** "G" for a Gravatar, "U" for an uploaded avatar. */
    avatar_source: z.string().optional(),
    /** Never null: the caller's own avatar never defers to client_gravatar. */
    avatar_url: z.string().optional(),
    /** The same at 500 pixels. */
    avatar_url_medium: z.string().optional(),
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_moderator: z.boolean().optional(),
    is_guest: z.boolean().optional(),

    /** User groups come later: always empty. */
    realm_user_groups: z.array(userGroupSchema).optional(),

    // `navigation_views`.
    /** The caller's stored navigation views. */
    navigation_views: z.array(navigationViewSchema).optional(),

    // `custom_profile_fields`.
    custom_profile_fields: z.array(customProfileFieldSchema).optional(),
    /** The field types by name (SHORT_TEXT, …): their ids and labels. */
    custom_profile_field_types: z.record(z.string(), z.object({ id: int(), name: z.string() })).optional(),

    // `subscription` and `stream` (messaging).
    /** The channels the caller is subscribed to. */
    subscriptions: z.array(subscriptionSchema).optional(),
    /** The channels the caller left, where they may still see them. */
    unsubscribed: z.array(subscriptionSchema).optional(),
    /** The channels the caller could join but never did (subscribers with include_subscribers). */
    never_subscribed: z.array(channelSchema.extend({ subscribers: z.array(int()).optional() })).optional(),
    /** The channels the caller may see (fetch key `stream`). */
    streams: z.array(channelSchema).optional(),

    // `channel_folders` (messaging).
    /** Every channel folder of the organization, archived ones included, in their order. */
    channel_folders: z.array(channelFolderSchema).optional(),

    // `drafts`, `message`, `user_topic`, `recent_private_conversations`, unread messages.
    /** Empty while the caller's drafts synchronization is off. */
    drafts: z.array(draftSchema).optional(),
    /** The newest message the caller received, or -1. */
    max_message_id: int().optional(),
    /** The caller's topic visibility policies (not those of archived channels). */
    user_topics: z.array(userTopicSchema).optional(),
    /** The conversations of the caller's newest direct messages, newest first. */
    recent_private_conversations: z
      .array(
        z.object({
          /** The conversation's newest message. */
          max_message_id: int(),
          /** The other participants, ascending (none for notes to self). */
          user_ids: z.array(int()),
        }),
      )
      .optional(),
    /** With fetch keys `message` and `update_message_flags` both. */
    unread_msgs: unreadMessagesSchema.optional(),

    // `user_status` (presence).
    /** By user id: the statuses of active users that show anything. */
    user_status: z.record(z.string().regex(/^[0-9]+$/), userStatusSchema).optional(),

    // `realm_emoji` and `realm_bot` (users-groups).
    /** By id: the organization's custom emoji, deactivated ones included. */
    realm_emoji: z.record(z.string().regex(/^[0-9]+$/), realmEmojiSchema).optional(),
    /** The bots the caller may administer: every bot for administrators, their own otherwise. */
    realm_bots: z.array(realmBotSchema).optional(),

    // `muted_topics` and `starred_messages` (messaging).
    /** Deprecated: [channel name, topic, Unix seconds] of each muted topic; left out when `user_topic` is asked for explicitly. */
    muted_topics: z.array(z.tuple([z.string(), z.string(), int()])).optional(),
    /** The ids of the caller's starred messages, ascending. */
    starred_messages: z.array(int()).optional(),

    // `presence` (presence).
    /** By user id (modern format, slim_presence) or by email (legacy). */
    presences: z.record(z.string(), z.union([modernPresenceSchema, legacyPresenceSchema])).optional(),
    /** The newest presence update in `presences`, -1 when none. */
    presence_last_update_id: int().optional(),
    /** Unix seconds, when `presences` was read. */
    server_timestamp: z.number().optional(),

    // Features this server does not have yet, at Zulip's values for an organization not using them (the gateway).
    muted_users: z.array(z.object({ id: int(), timestamp: int() })).optional(),
    alert_words: z.array(z.string()).optional(),
    realm_linkifiers: z.array(z.object({ pattern: z.string(), url_template: z.string(), id: int() })).optional(),
    realm_filters: z.array(z.tuple([z.string(), z.string(), int()])).optional(),
    realm_playgrounds: z.array(z.object({ id: int(), name: z.string(), pygments_language: z.string(), url_template: z.string() })).optional(),
    saved_snippets: z.array(z.object({ id: int(), title: z.string(), content: z.string(), date_created: int() })).optional(),
    realm_embedded_bots: z.array(z.object({ name: z.string(), config: z.record(z.string(), z.string()) })).optional(),
    realm_incoming_webhook_bots: z.array(z.object({ name: z.string(), display_name: z.string() }).passthrough()).optional(),
    /** The ids of the organization's default channels. */
    realm_default_streams: z.array(int()).optional(),
    realm_default_stream_groups: z.array(z.object({ id: int(), name: z.string(), description: z.string(), streams: z.array(int()) })).optional(),
    realm_domains: z.array(z.object({ domain: z.string(), allow_subdomains: z.boolean() })).optional(),
    onboarding_steps: z.array(z.object({ type: z.string(), name: z.string() })).optional(),
    navigation_tour_video_url: z.string().nullable().optional(),
    reminders: z.array(z.unknown()).optional(),
    has_zoom_token: z.boolean().optional(),

    // `scheduled_messages` (scheduler).
    /** The caller's undelivered scheduled messages, failed ones included, earliest first. */
    scheduled_messages: z.array(scheduledMessageSchema).optional(),
    // `push_device` (push).
    /** By push account ID: the caller's E2EE push devices and their registration status. */
    push_devices: z.record(z.string().regex(/^-?[0-9]+$/), pushDeviceStateSchema).optional(),
  }),
);
export type RegisterResponse = z.output<typeof registerResponseSchema>;

import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { channelFolderSchema } from '../messaging/channel-folders';
import { channelSchema, subscriptionSchema } from '../messaging/channels';
import { draftSchema } from '../messaging/drafts';
import { savedSnippetSchema } from '../messaging/saved-snippets';
import { linkifierSchema, realmPlaygroundSchema } from '../messaging/linkifiers';
import { userStatusSchema } from '../presence/status';
import { legacyPresenceSchema, modernPresenceSchema } from '../presence/presence';
import { scheduledMessageSchema } from '../scheduler/scheduled-messages';
import { reminderSchema } from '../scheduler/reminders';
import { pushDeviceStateSchema } from '../push/devices';
import { navigationViewSchema } from '../users-groups/navigation-views';
import { userSchema } from '../users-groups/users';
import { groupSettingValueSchema, userGroupSchema } from '../users-groups/user-groups';
import { REALM_DEFAULTS_UNTIL_FEATURE } from './defaults-until-feature';
import { REALM_GROUP_SETTING_NAMES, realmDomainSchema } from '../users-groups/realm-settings';
import { legacySettingsShape, realmUserSettingsDefaultsSchema, userSettingsSchema } from './register-settings';
import {
  customProfileFieldSchema,
  realmBotSchema,
  realmEmojiSchema,
  realmUserSchema,
  unreadMessagesSchema,
  userTopicSchema,
} from './register-records';

export { groupSettingValueSchema };
export {
  LEGACY_DISPLAY_SETTING_NAMES,
  LEGACY_NOTIFICATION_SETTING_NAMES,
  realmUserSettingsDefaultsSchema,
  settingNamesOfType,
  userSettingsSchema,
  type UserSettingsRecord,
} from './register-settings';
export { customProfileFieldSchema, realmBotSchema, realmEmojiSchema, realmUserSchema, unreadMessagesSchema, userTopicSchema } from './register-records';

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

/** The organization's group-based permissions (users-groups; PATCH /realm changes them). */
const realmGroupSettingsShape = Object.fromEntries(
  REALM_GROUP_SETTING_NAMES.map((name) => [`realm_${name}`, groupSettingValueSchema.optional()]),
) as Record<`realm_${(typeof REALM_GROUP_SETTING_NAMES)[number]}`, z.ZodOptional<typeof groupSettingValueSchema>>;

/** The organization's stored settings PATCH /realm changes, beyond those declared one by one below (users-groups). */
const realmStoredSettingsShape = {
  realm_invite_required: z.boolean().optional(),
  realm_emails_restricted_to_domains: z.boolean().optional(),
  realm_disallow_disposable_email_addresses: z.boolean().optional(),
  realm_message_edit_history_visibility_policy: z.enum(['all', 'moves', 'none']).optional(),
  /** Deprecated: whether the edit history policy is other than "none". */
  realm_allow_edit_history: z.boolean().optional(),
  /** -1: messages are kept forever. */
  realm_message_retention_days: int().optional(),
  /** Deprecated: topics_policy is disable_empty_topic. */
  realm_mandatory_topics: z.boolean().optional(),
  realm_name_changes_disabled: z.boolean().optional(),
  realm_avatar_changes_disabled: z.boolean().optional(),
  realm_require_unique_names: z.boolean().optional(),
  realm_enable_guest_user_indicator: z.boolean().optional(),
  realm_enable_guest_user_dm_warning: z.boolean().optional(),
  realm_send_welcome_emails: z.boolean().optional(),
  realm_welcome_message_custom_text: z.string().optional(),
  realm_digest_emails_enabled: z.boolean().optional(),
  realm_digest_weekday: int().optional(),
  realm_message_content_allowed_in_email_notifications: z.boolean().optional(),
  realm_require_e2ee_push_notifications: z.boolean().optional(),
  realm_org_type: int().optional(),
  realm_default_code_block_language: z.string().optional(),
  realm_giphy_rating: int().optional(),
  realm_want_advertise_in_communities_directory: z.boolean().optional(),
  /** -1 for none. */
  realm_new_stream_announcements_stream_id: int().optional(),
  realm_signup_announcements_stream_id: int().optional(),
  realm_zulip_update_announcements_stream_id: int().optional(),
  /** "D": Zulip's default image, "U": uploaded. */
  realm_logo_source: z.string().optional(),
  realm_logo_url: z.string().optional(),
  realm_night_logo_source: z.string().optional(),
  realm_night_logo_url: z.string().optional(),
};

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
    realm_waiting_period_threshold: int().optional(),
    realm_default_language: z.string().optional(),
    realm_icon_url: z.string().optional(),
    /** "G" for a Gravatar, "U" for an uploaded icon. */
    realm_icon_source: z.string().optional(),
    realm_presence_disabled: z.boolean().optional(),
    realm_is_zephyr_mirror_realm: z.boolean().optional(),
    realm_enable_read_receipts: z.boolean().optional(),
    /** The channel reported messages go to; -1 for none. */
    realm_moderation_request_channel_id: int().optional(),
    /** Zulip's VIDEO_CHAT_PROVIDERS id: 0 none, 1 Jitsi Meet, 4 BigBlueButton. */
    realm_video_chat_provider: int().optional(),
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
    max_icon_file_size_mib: int().optional(),
    max_logo_file_size_mib: int().optional(),
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
    /** Deprecated: `realm_jitsi_server_url`, else `server_jitsi_server_url` (null when the server has none, as Zulip's server sends). */
    jitsi_server_url: z.string().nullable().optional(),
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
    // The organization's group-based permissions and its other stored settings (users-groups).
    ...realmGroupSettingsShape,
    ...realmStoredSettingsShape,
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
    realm_linkifiers: z.array(linkifierSchema).optional(),
    realm_filters: z.array(z.tuple([z.string(), z.string(), int()])).optional(),
    realm_playgrounds: z.array(realmPlaygroundSchema).optional(),
    saved_snippets: z.array(savedSnippetSchema).optional(),
    realm_embedded_bots: z.array(z.object({ name: z.string(), config: z.record(z.string(), z.string()) })).optional(),
    realm_incoming_webhook_bots: z.array(z.object({ name: z.string(), display_name: z.string() }).passthrough()).optional(),
    /** The ids of the organization's default channels. */
    realm_default_streams: z.array(int()).optional(),
    realm_default_stream_groups: z.array(z.object({ id: int(), name: z.string(), description: z.string(), streams: z.array(int()) })).optional(),
    realm_domains: z.array(realmDomainSchema).optional(),
    onboarding_steps: z.array(z.object({ type: z.string(), name: z.string() })).optional(),
    navigation_tour_video_url: z.string().nullable().optional(),
    has_zoom_token: z.boolean().optional(),

    // `scheduled_messages` (scheduler).
    /** The caller's undelivered scheduled messages, failed ones included, earliest first. */
    scheduled_messages: z.array(scheduledMessageSchema).optional(),
    // `reminders` (scheduler).
    /** The caller's undelivered reminders, failed ones included, earliest first. */
    reminders: z.array(reminderSchema).optional(),
    // `push_device` (push).
    /** By push account ID: the caller's E2EE push devices and their registration status. */
    push_devices: z.record(z.string().regex(/^-?[0-9]+$/), pushDeviceStateSchema).optional(),
  }),
);
export type RegisterResponse = z.output<typeof registerResponseSchema>;

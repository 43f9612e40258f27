/**
 * The one table of POST /register state for features this server does not have yet, at
 * Zulip's values for a new organization that does not use them (see docs/architecture.md,
 * "Register state"). Each key moves to its owner's register reader when its feature comes.
 */

/**
 * Organization settings (fetch key `realm`) with no feature behind them, at Zulip's defaults
 * (zerver/models/realms.py) or at the value that says the feature is off. The gateway serves them.
 */
export const REALM_DEFAULTS_UNTIL_FEATURE = {
  // Message edit history (editing, moving and deletion themselves are the organization's
  // settings, served by users-groups).
  realm_message_edit_history_visibility_policy: 'all',
  realm_allow_edit_history: true,
  /** -1: messages are kept forever (Zulip's RETAIN_MESSAGE_FOREVER). */
  realm_message_retention_days: -1,
  // Topics.
  realm_topics_policy: 'allow_empty_topic',
  realm_mandatory_topics: false,
  // Deprecated role-based policies, as Zulip derives them from its default groups.
  realm_create_public_stream_policy: 1,
  realm_create_private_stream_policy: 1,
  realm_create_web_public_stream_policy: 2,
  realm_wildcard_mention_policy: 5,
  // Sign-up, invitations and welcome mail (none here).
  realm_invite_required: true,
  realm_welcome_message_custom_text: '',
  realm_send_welcome_emails: false,
  realm_disallow_disposable_email_addresses: true,
  realm_emails_restricted_to_domains: false,
  realm_require_unique_names: false,
  realm_name_changes_disabled: false,
  realm_avatar_changes_disabled: false,
  // Digests and notifications by mail (not sent).
  realm_digest_emails_enabled: false,
  realm_digest_weekday: 1,
  realm_message_content_allowed_in_email_notifications: true,
  // Mobile push.
  realm_push_notifications_enabled: false,
  realm_push_notifications_enabled_end_timestamp: null,
  realm_require_e2ee_push_notifications: false,
  // Rendering previews (not rendered here).
  realm_inline_image_preview: false,
  realm_inline_url_embed_preview: false,
  realm_default_code_block_language: '',
  // GIPHY: none configured.
  realm_giphy_rating: 2,
  giphy_rating_options: {
    disabled: { name: 'GIPHY integration disabled', id: 0 },
    y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
    g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
    pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
    'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  },
  // Guest indicators.
  realm_enable_guest_user_indicator: true,
  realm_enable_guest_user_dm_warning: true,
  // Logos (none uploaded: Zulip's default image).
  realm_logo_source: 'D',
  realm_logo_url: '/static/images/logo/zulip-org-logo.svg?version=0',
  realm_night_logo_source: 'D',
  realm_night_logo_url: '/static/images/logo/zulip-org-logo.svg?version=0',
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  // Organization profile and plan (self-hosted, no plan limits).
  realm_org_type: 0,
  realm_plan_type: 1,
  zulip_plan_is_not_limited: true,
  upgrade_text_for_wide_organization_logo: '',
  realm_want_advertise_in_communities_directory: false,
  // Announcement channels: none (Zulip's -1).
  realm_new_stream_announcements_stream_id: -1,
  realm_signup_announcements_stream_id: -1,
  realm_zulip_update_announcements_stream_id: -1,
  // Reminders.
  max_reminder_note_length: 1000,
  // The server's own settings Zulip reports.
  server_min_deactivated_realm_deletion_days: 14,
  server_max_deactivated_realm_deletion_days: null,
  server_needs_upgrade: false,
  server_generation: 0,
  development_environment: false,
  server_inline_image_preview: false,
  server_inline_url_embed_preview: false,
  server_avatar_changes_disabled: false,
  server_name_changes_disabled: false,
  server_web_public_streams_enabled: true,
  server_can_summarize_topics: false,
  server_thumbnail_formats: [],
  /** Zulip's password policy defaults (PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_GUESSES). */
  password_min_length: 6,
  password_max_length: 100,
  password_min_guesses: 10000,
} as const;

/**
 * Organization permission settings (fetch key `realm`, as `realm_<name>`) with no feature behind
 * them, at Zulip's default system group. users-groups serves them as that group's id.
 */
export const REALM_GROUP_SETTINGS_UNTIL_FEATURE = {
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_write_only_bots_group: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:administrators',
  // The message-action settings are stored (realms columns, served by users-groups); these are
  // their defaults, which an unset column means.
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:nobody',
  can_manage_billing_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:moderators',
  can_summarize_topics_group: 'role:everyone',
  create_multiuse_invite_group: 'role:administrators',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
} as const;

/**
 * One permission setting as `server_supported_permission_settings` describes it (Zulip's
 * GroupPermissionSetting): which groups it accepts and its default. Only the facts the owners'
 * tables hold vary; the rest is Zulip's ordinary case (any system group but role:internet).
 */
export function permissionSettingDescription(setting: { allowEveryone: boolean; defaultGroupName: string; requireSystemGroup?: boolean; allowNobody?: boolean }) {
  return {
    require_system_group: setting.requireSystemGroup ?? false,
    allow_internet_group: false,
    allow_nobody_group: setting.allowNobody ?? true,
    allow_everyone_group: setting.allowEveryone,
    default_group_name: setting.defaultGroupName,
    default_for_system_groups: null,
    allowed_system_groups: [] as string[],
  };
}

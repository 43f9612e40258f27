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
  // Deprecated role-based policies, as Zulip derives them from its default groups.
  realm_create_public_stream_policy: 1,
  realm_create_private_stream_policy: 1,
  realm_create_web_public_stream_policy: 2,
  realm_wildcard_mention_policy: 5,
  // Mobile push.
  realm_push_notifications_enabled: false,
  realm_push_notifications_enabled_end_timestamp: null,
  // Rendering previews (not rendered here).
  realm_inline_image_preview: false,
  realm_inline_url_embed_preview: false,
  // GIPHY's rating choices (the organization's rating is stored).
  giphy_rating_options: {
    disabled: { name: 'GIPHY integration disabled', id: 0 },
    y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
    g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
    pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
    'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  },
  // Organization profile and plan (self-hosted, no plan limits).
  realm_plan_type: 1,
  zulip_plan_is_not_limited: true,
  upgrade_text_for_wide_organization_logo: '',
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
 * One permission setting as `server_supported_permission_settings` describes it (Zulip's
 * GroupPermissionSetting): which groups it accepts and its default. Only the facts the owners'
 * tables hold vary; the rest is Zulip's ordinary case (any system group but role:internet).
 */
export function permissionSettingDescription(setting: {
  allowEveryone: boolean;
  defaultGroupName: string;
  requireSystemGroup?: boolean;
  allowNobody?: boolean;
  allowedSystemGroups?: string[];
}) {
  return {
    require_system_group: setting.requireSystemGroup ?? false,
    allow_internet_group: false,
    allow_nobody_group: setting.allowNobody ?? true,
    allow_everyone_group: setting.allowEveryone,
    default_group_name: setting.defaultGroupName,
    default_for_system_groups: null,
    allowed_system_groups: setting.allowedSystemGroups ?? ([] as string[]),
  };
}

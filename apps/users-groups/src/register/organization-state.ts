import type { RealmModel } from '@teamchat/db';
import { DEFAULT_LANGUAGE } from './settings-state';

/** Zulip's custom profile field types, keyed by name (CustomProfileField.ALL_FIELD_TYPES). */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The `realm_*` organization settings users-groups stores (fetch key `realm`). The gateway
 * adds the name, URL and server-wide constants; the reader adds the group-based permissions.
 */
export function organizationState(realm: RealmModel, iconUrl: string): Record<string, unknown> {
  return {
    realm_description: realm.description,
    realm_date_created: seconds(realm.dateCreated),
    realm_enable_spectator_access: realm.enableSpectatorAccess,
    realm_email_changes_disabled: realm.emailChangesDisabled,
    realm_password_auth_enabled: realm.passwordAuthEnabled,
    // Email-and-password is the only way in, so Zulip's two flags coincide.
    realm_email_auth_enabled: realm.passwordAuthEnabled,
    realm_authentication_methods: { Email: { enabled: realm.passwordAuthEnabled, available: true } },
    realm_waiting_period_threshold: realm.waitingPeriodThreshold,
    // Message editing, moving and deletion (messaging applies them; users-groups owns the row).
    realm_allow_message_editing: realm.allowMessageEditing,
    realm_message_content_edit_limit_seconds: realm.messageContentEditLimitSeconds,
    realm_message_content_delete_limit_seconds: realm.messageContentDeleteLimitSeconds,
    realm_move_messages_within_stream_limit_seconds: realm.moveMessagesWithinStreamLimitSeconds,
    realm_move_messages_between_streams_limit_seconds: realm.moveMessagesBetweenStreamsLimitSeconds,
    realm_default_language: DEFAULT_LANGUAGE,
    realm_icon_url: iconUrl,
    realm_icon_source: 'G',
    // Presence is on for every organization; there is no Zephyr mirroring.
    realm_presence_disabled: false,
    realm_is_zephyr_mirror_realm: false,
    realm_enable_read_receipts: realm.enableReadReceipts,
    // Zulip's -1 for "none".
    realm_moderation_request_channel_id: realm.moderationRequestChannelId ?? -1,
    realm_video_chat_provider: realm.videoChatProvider,
    realm_jitsi_server_url: realm.jitsiServerUrl,
  };
}

/** A custom profile field as Zulip's CustomProfileField.as_dict writes it. */
export function customProfileFieldRecord(field: {
  id: number;
  name: string;
  fieldType: number;
  hint: string;
  fieldData: string;
  order: number;
  required: boolean;
  editableByUser: boolean;
  displayInProfileSummary: boolean;
}): Record<string, unknown> {
  return {
    id: field.id,
    name: field.name,
    type: field.fieldType,
    hint: field.hint,
    field_data: field.fieldData,
    order: field.order,
    required: field.required,
    editable_by_user: field.editableByUser,
    ...(field.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  };
}

import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `realms`: the organization settings messaging's rules read. */

/** The group allowed wildcard mentions in large channels and topics. */
export const canMentionManyUsersGroup = statement<{ groupId: number }, [realmId: number]>(
  'messaging.can_mention_many_users_group',
  `SELECT can_mention_many_users_group_id AS "groupId" FROM realms WHERE id = $1`,
);

/** The organization's editing and deletion settings; a group left unset is Zulip's default system group. */
export interface RealmEditSettingsRow {
  allowMessageEditing: boolean;
  editLimitSeconds: number | null;
  deleteLimitSeconds: number | null;
  moveWithinLimitSeconds: number | null;
  moveBetweenLimitSeconds: number | null;
  canMoveBetweenTopicsGroupId: number;
  canMoveBetweenChannelsGroupId: number;
  canDeleteOwnGroupId: number;
  canDeleteAnyGroupId: number;
  canResolveTopicsGroupId: number;
}
const systemGroup = (name: string) =>
  `(SELECT g.id FROM user_groups g WHERE g.realm_id = r.id AND g.is_system_group AND g.name = '${name}')`;
export const realmEditSettings = statement<RealmEditSettingsRow, [realmId: number]>(
  'messaging.realm_edit_settings',
  `SELECT r.allow_message_editing AS "allowMessageEditing", r.message_content_edit_limit_seconds AS "editLimitSeconds",
     r.message_content_delete_limit_seconds AS "deleteLimitSeconds",
     r.move_messages_within_stream_limit_seconds AS "moveWithinLimitSeconds",
     r.move_messages_between_streams_limit_seconds AS "moveBetweenLimitSeconds",
     coalesce(r.can_move_messages_between_topics_group_id, ${systemGroup('role:everyone')}) AS "canMoveBetweenTopicsGroupId",
     coalesce(r.can_move_messages_between_channels_group_id, ${systemGroup('role:members')}) AS "canMoveBetweenChannelsGroupId",
     coalesce(r.can_delete_own_message_group_id, ${systemGroup('role:everyone')}) AS "canDeleteOwnGroupId",
     coalesce(r.can_delete_any_message_group_id, ${systemGroup('role:administrators')}) AS "canDeleteAnyGroupId",
     coalesce(r.can_resolve_topics_group_id, ${systemGroup('role:everyone')}) AS "canResolveTopicsGroupId"
   FROM realms r WHERE r.id = $1`,
);

/** Read receipts and message reports: whether receipts are on, and the moderation request channel (null: reporting is off). */
export const realmModerationSettings = statement<{ enableReadReceipts: boolean; moderationRequestChannelId: number | null }, [realmId: number]>(
  'messaging.realm_moderation_settings',
  `SELECT enable_read_receipts AS "enableReadReceipts", moderation_request_channel_id AS "moderationRequestChannelId" FROM realms WHERE id = $1`,
);

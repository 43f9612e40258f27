import type { ChannelPermissionSettingName } from '@teamchat/contracts';

type Column =
  | 'canAddSubscribersGroupId'
  | 'canAdministerChannelGroupId'
  | 'canDeleteAnyMessageGroupId'
  | 'canDeleteOwnMessageGroupId'
  | 'canMoveMessagesWithinChannelGroupId'
  | 'canRemoveSubscribersGroupId'
  | 'canResolveTopicsGroupId'
  | 'canSendMessageGroupId'
  | 'canSubscribeGroupId';

/**
 * A channel's permission settings (Zulip's Stream.stream_permission_group_settings): the streams
 * column holding each, and whether it may be role:everyone (a setting that may not is never
 * granted to guests). None may be role:internet; all may be role:nobody.
 */
export const CHANNEL_PERMISSION_SETTINGS: Record<ChannelPermissionSettingName, { column: Column; allowEveryone: boolean }> = {
  can_add_subscribers_group: { column: 'canAddSubscribersGroupId', allowEveryone: false },
  can_administer_channel_group: { column: 'canAdministerChannelGroupId', allowEveryone: false },
  can_delete_any_message_group: { column: 'canDeleteAnyMessageGroupId', allowEveryone: false },
  can_delete_own_message_group: { column: 'canDeleteOwnMessageGroupId', allowEveryone: true },
  can_move_messages_within_channel_group: { column: 'canMoveMessagesWithinChannelGroupId', allowEveryone: true },
  can_remove_subscribers_group: { column: 'canRemoveSubscribersGroupId', allowEveryone: false },
  can_resolve_topics_group: { column: 'canResolveTopicsGroupId', allowEveryone: true },
  can_send_message_group: { column: 'canSendMessageGroupId', allowEveryone: true },
  can_subscribe_group: { column: 'canSubscribeGroupId', allowEveryone: false },
};

/** The settings' group ids of a channel row. */
export type ChannelPermissionColumns = Record<Column, number | null>;

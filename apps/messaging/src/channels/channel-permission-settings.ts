import { Realtime, type ChannelPermissionSettingName } from '@teamchat/contracts';

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

/** Each setting's value for a new channel (the database's stream_permission_defaults), as Zulip names it. */
const DEFAULT_GROUP_NAMES: Record<ChannelPermissionSettingName, string> = {
  can_add_subscribers_group: 'role:nobody',
  can_administer_channel_group: 'stream_creator_or_nobody',
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:everyone',
  can_move_messages_within_channel_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_resolve_topics_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
};

/** `server_supported_permission_settings.stream` of POST /register. */
export const supportedChannelPermissionSettings = () =>
  Object.fromEntries(
    (Object.keys(CHANNEL_PERMISSION_SETTINGS) as ChannelPermissionSettingName[]).map((name) => [
      name,
      Realtime.permissionSettingDescription({ allowEveryone: CHANNEL_PERMISSION_SETTINGS[name].allowEveryone, defaultGroupName: DEFAULT_GROUP_NAMES[name] }),
    ]),
  );

/** The settings' group ids of a channel row. */
export type ChannelPermissionColumns = Record<Column, number | null>;

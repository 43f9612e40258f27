import { statement } from '@teamchat/db';
import type { MemberProfileRow } from './member-profiles.readonly.sql';

/** `streams`' hot-path statements (ChannelsRepository's). Columns come back in the Prisma models' camelCase. */

/** A channel's folder, retention and permission groups, as ChannelRow names them. */
export const CHANNEL_SETTING_COLUMNS = `s.folder_id AS "folderId", s.message_retention_days AS "messageRetentionDays",
  s.can_add_subscribers_group_id AS "canAddSubscribersGroupId", s.can_administer_channel_group_id AS "canAdministerChannelGroupId",
  s.can_delete_any_message_group_id AS "canDeleteAnyMessageGroupId", s.can_delete_own_message_group_id AS "canDeleteOwnMessageGroupId",
  s.can_move_messages_within_channel_group_id AS "canMoveMessagesWithinChannelGroupId",
  s.can_remove_subscribers_group_id AS "canRemoveSubscribersGroupId", s.can_resolve_topics_group_id AS "canResolveTopicsGroupId",
  s.can_send_message_group_id AS "canSendMessageGroupId", s.can_subscribe_group_id AS "canSubscribeGroupId"`;

const CHANNEL_COLUMNS = `s.id, s.realm_id AS "realmId", s.name, s.description, s.rendered_description AS "renderedDescription",
  s.invite_only AS "inviteOnly", s.history_public_to_subscribers AS "historyPublicToSubscribers",
  s.is_web_public AS "isWebPublic", s.is_archived AS "isArchived", s.creator_id AS "creatorId",
  s.first_message_id AS "firstMessageId", s.date_created AS "dateCreated",
  sub.id AS "subscriptionId", sub.active AS "subscriptionActive",
  sub.subscribed_after_message_id AS "subscribedAfterMessageId", sub.is_muted AS "subscriptionMuted"`;

export interface ChannelWithSubscriptionRow {
  id: number;
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
  isArchived: boolean;
  creatorId: number | null;
  firstMessageId: number | null;
  dateCreated: Date;
  subscriptionId: number | null;
  subscriptionActive: boolean | null;
  subscribedAfterMessageId: number | null;
  subscriptionMuted: boolean | null;
}

/**
 * An unarchived channel of the organization ($2) with user $3's subscription row, by id or by
 * name whatever its case ($1): the one shape every channel access read has.
 */
const channelForUser = (columns: string, by: 'id' | 'name') => `SELECT ${columns} FROM streams s
   LEFT JOIN subscriptions sub ON sub.stream_id = s.id AND sub.user_id = $3
   WHERE ${by === 'id' ? 's.id = $1' : 'lower(s.name) = lower($1)'} AND s.realm_id = $2 AND NOT s.is_archived
   LIMIT 1`;

/** An unarchived channel of the organization by id, with the user's subscription row if any. */
export const channelByIdForUser = statement<ChannelWithSubscriptionRow, [streamId: number, realmId: number, userId: number]>(
  'messaging.channel_by_id_for_user',
  channelForUser(CHANNEL_COLUMNS, 'id'),
);

/** The same, by name, whatever its case. */
export const channelByNameForUser = statement<ChannelWithSubscriptionRow, [name: string, realmId: number, userId: number]>(
  'messaging.channel_by_name_for_user',
  channelForUser(CHANNEL_COLUMNS, 'name'),
);

/**
 * What sending to a channel needs besides the channel: who receives it, the sender and who may
 * post. None of it depends on the topic, so it can be cached (ChannelSendContexts); the topic's
 * state is read by the insert itself.
 */
export interface ChannelSendContextRow extends ChannelWithSubscriptionRow {
  /** Active subscribers whose accounts are active. */
  subscriberIds: number[];
  /** The sender's profile row (it shows on the message, and its settings decide topic follows). */
  sender: MemberProfileRow;
  /** The channel's can_send_message_group, and whether it is role:everyone (then no membership check is needed). */
  canSendMessageGroupId: number | null;
  everyoneMaySend: boolean;
}

const SEND_CONTEXT_COLUMNS = `${CHANNEL_COLUMNS},
  ARRAY(SELECT r.user_id FROM subscriptions r JOIN users u ON u.id = r.user_id
        WHERE r.stream_id = s.id AND r.active AND u.is_active) AS "subscriberIds",
  (SELECT json_build_object('id', u.id, 'fullName', u.full_name, 'deliveryEmail', u.delivery_email,
     'avatarSource', u.avatar_source, 'avatarVersion', u.avatar_version, 'isBot', u.is_bot, 'isActive', u.is_active,
     'role', u.role, 'settings', u.settings, 'realmDefaults', r.user_settings_defaults)
   FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.id = $3) AS sender,
  s.can_send_message_group_id AS "canSendMessageGroupId",
  EXISTS (SELECT 1 FROM user_groups g WHERE g.id = s.can_send_message_group_id AND g.is_system_group AND g.name = 'role:everyone')
    AS "everyoneMaySend"`;

/** Everything a channel message needs read, in one statement: the channel by id, the sender's subscription and profile, the recipients. */
export const channelSendContextById = statement<ChannelSendContextRow, [streamId: number, realmId: number, userId: number]>(
  'messaging.channel_send_context_by_id',
  channelForUser(SEND_CONTEXT_COLUMNS, 'id'),
);

/** The same, the channel named whatever its case. */
export const channelSendContextByName = statement<ChannelSendContextRow, [name: string, realmId: number, userId: number]>(
  'messaging.channel_send_context_by_name',
  channelForUser(SEND_CONTEXT_COLUMNS, 'name'),
);

/** Channel names by id (what a message record shows as `display_recipient`). */
export const channelNames = statement<{ id: number; name: string }, [streamIds: number[]]>(
  'messaging.channel_names',
  `SELECT id, name FROM streams WHERE id = ANY($1::int[])`,
);

/** Moving into a channel whose first message is later than the moved ones: it becomes the first. */
export const lowerFirstMessageId = statement<{ firstMessageId: number }, [streamId: number, candidate: number]>(
  'messaging.lower_first_message_id',
  `UPDATE streams SET first_message_id = $2 WHERE id = $1 AND (first_message_id IS NULL OR first_message_id > $2)
   RETURNING first_message_id AS "firstMessageId"`,
);

/** After messages left a channel: its first_message_id, if it was one of them, becomes its oldest remaining message. */
export const recomputeFirstMessageId = statement<{ firstMessageId: number | null }, [streamId: number, movedIds: number[]]>(
  'messaging.recompute_first_message_id',
  `UPDATE streams s SET first_message_id = (SELECT min(m.id) FROM messages m WHERE m.stream_id = s.id)
   WHERE s.id = $1 AND s.first_message_id = ANY($2::int[]) RETURNING s.first_message_id AS "firstMessageId"`,
);

/** A channel of the organization, archived or not, whatever the caller's access. */
export const channelIdInRealm = statement<{ id: number }, [streamId: number, realmId: number]>(
  'messaging.channel_id_in_realm',
  `SELECT id FROM streams WHERE id = $1 AND realm_id = $2`,
);

/**
 * The organization's default channels, in id order: flagged ones still public and not archived
 * (a default channel made private or archived stops being one, as in Zulip).
 */
export const defaultChannelIds = statement<{ id: number }, [realmId: number]>(
  'messaging.default_channel_ids',
  `SELECT id FROM streams WHERE realm_id = $1 AND is_default AND NOT invite_only AND NOT is_archived ORDER BY id`,
);

import { statement, type StreamModel } from '@teamchat/db';
import type { SubscriptionRow } from '../channels/channel-record';
import type { MemberProfile } from './member-profiles.readonly';

/**
 * Messaging's hot-path SQL, in one place: each statement named, prepared once per connection,
 * run through PgService. (Prisma keeps the schema and the cold paths.) Columns come back in
 * the Prisma models' camelCase, so rows and models are interchangeable.
 */

/** A channel's folder, retention and permission groups, as ChannelRow names them. */
const CHANNEL_SETTING_COLUMNS = `s.folder_id AS "folderId", s.message_retention_days AS "messageRetentionDays",
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

/** A person's row: their profile as messages show it, before settings are resolved and the email chosen. */
export type MemberProfileRow = Omit<MemberProfile, 'email' | 'settings'> & { settings: unknown; realmDefaults: unknown };

/** People by id, with their stored settings and their organization's defaults. */
export const memberProfiles = statement<MemberProfileRow, [userIds: number[]]>(
  'messaging.member_profiles',
  `SELECT u.id, u.full_name AS "fullName", u.delivery_email AS "deliveryEmail", u.avatar_source AS "avatarSource",
     u.avatar_version AS "avatarVersion", u.is_bot AS "isBot", u.is_active AS "isActive", u.role, u.settings,
     r.user_settings_defaults AS "realmDefaults"
   FROM users u JOIN realms r ON r.id = u.realm_id
   WHERE u.id = ANY($1::int[])`,
);

/** Active users of the organization a message could mention: by full name whatever its case, or by id. */
export const mentionableUsers = statement<{ id: number; fullName: string }, [realmId: number, names: string[], userIds: number[]]>(
  'messaging.mentionable_users',
  `SELECT id, full_name AS "fullName" FROM users
   WHERE realm_id = $1 AND is_active AND (lower(full_name) IN (SELECT lower(name) FROM unnest($2::text[]) AS name) OR id = ANY($3::int[]))`,
);

/** The organization's named groups with these names (deactivated ones too: mentioning one is refused). */
export const groupsNamed = statement<{ id: number; name: string; deactivated: boolean; canMentionGroupId: number | null }, [realmId: number, names: string[]]>(
  'messaging.groups_named',
  `SELECT id, name, deactivated, can_mention_group_id AS "canMentionGroupId" FROM user_groups
   WHERE realm_id = $1 AND name = ANY($2::text[])`,
);

/** The group allowed wildcard mentions in large channels and topics. */
export const canMentionManyUsersGroup = statement<{ groupId: number }, [realmId: number]>(
  'messaging.can_mention_many_users_group',
  `SELECT can_mention_many_users_group_id AS "groupId" FROM realms WHERE id = $1`,
);

/** Everyone who has sent a message to a channel topic (whatever its case). */
export const topicSenderIds = statement<{ senderId: number }, [streamId: number, topic: string]>(
  'messaging.topic_sender_ids',
  `SELECT DISTINCT sender_id AS "senderId" FROM messages WHERE stream_id = $1 AND lower(topic) = lower($2)`,
);

/** The message's columns and values, then its recipients' rows and the channel's first message. */
type MessageValues = [
  realmId: number,
  senderId: number,
  streamId: number | null,
  dmGroupId: number | null,
  topic: string,
  content: string,
  renderedContent: string,
  sendingClient: string,
  recipientIds: number[],
  recipientFlags: number[],
  hasLink: boolean,
  hasImage: boolean,
  hasAttachment: boolean,
];

/**
 * The one message-writing statement; `keyed` adds the scheduler's idempotency key as $14. It
 * also answers the topic's state before the message (every part of one statement sees the
 * same snapshot, which the insert's own rows are not in): whether the topic had messages, and
 * who had a visibility policy for it. A direct message ($3 null) has no topic state.
 */
const insertMessageText = (keyed: boolean) => `WITH prior AS (
     SELECT EXISTS (SELECT 1 FROM messages m WHERE m.stream_id = $3 AND lower(m.topic) = lower($5)) AS had_messages,
       coalesce((SELECT json_agg(json_build_object('userId', t.user_id, 'policy', t.visibility_policy)) FROM user_topics t
                 WHERE t.stream_id = $3 AND lower(t.topic_name) = lower($5)), '[]'::json) AS policies
   ), message AS (
     INSERT INTO messages (realm_id, sender_id, stream_id, dm_group_id, topic, content, rendered_content, sending_client,
       has_link, has_image, has_attachment${keyed ? ', scheduled_message_id' : ''})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13${keyed ? ', $14' : ''})${keyed ? '\n     ON CONFLICT (scheduled_message_id) WHERE scheduled_message_id IS NOT NULL DO NOTHING' : ''}
     RETURNING id, date_sent
   ), recipients AS (
     INSERT INTO user_messages (user_id, message_id, flags)
     SELECT r.user_id, message.id, r.flags FROM message, unnest($9::int[], $10::int[]) AS r(user_id, flags)
   ), first_message AS (
     UPDATE streams SET first_message_id = message.id FROM message
     WHERE streams.id = $3 AND streams.first_message_id IS NULL
   )
   SELECT id, date_sent AS "dateSent", prior.had_messages AS "topicHadMessages", prior.policies AS "topicPolicies" FROM message, prior`;

/** What the insert answers: the message's id and time, and the topic's state before it. */
export interface InsertedMessageRow {
  id: number;
  dateSent: Date;
  topicHadMessages: boolean;
  topicPolicies: { userId: number; policy: number }[];
}

/**
 * A new message and its recipients' rows in one statement, moving the channel's
 * first_message_id when it has none yet. Recipients come as two parallel arrays.
 */
export const insertMessage = statement<InsertedMessageRow, MessageValues>('messaging.insert_message', insertMessageText(false));

/**
 * insertMessage with the scheduler's idempotency key: a key already used (by a committed or
 * concurrent insert, which this one waits for) inserts nothing and returns no row.
 */
export const insertKeyedMessage = statement<InsertedMessageRow, [...MessageValues, scheduledMessageId: number]>(
  'messaging.insert_keyed_message',
  insertMessageText(true),
);

/** The message a scheduled message became, if any. */
export const messageIdByScheduledMessage = statement<{ id: number }, [scheduledMessageId: number]>(
  'messaging.message_id_by_scheduled_message',
  `SELECT id FROM messages WHERE scheduled_message_id = $1`,
);

/** Sets a user's visibility policy for a topic (matched whatever its case), creating the row if need be. */
export const setTopicVisibility = statement<Record<string, never>, [userId: number, streamId: number, topic: string, policy: number]>(
  'messaging.set_topic_visibility',
  `WITH updated AS (
     UPDATE user_topics SET visibility_policy = $4, last_updated = now()
     WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3)
     RETURNING id
   )
   INSERT INTO user_topics (user_id, stream_id, topic_name, visibility_policy)
   SELECT $1::int, $2::int, $3::text, $4::smallint WHERE NOT EXISTS (SELECT 1 FROM updated)
   ON CONFLICT (user_id, stream_id, topic_name) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = now()`,
);

/** A channel's active subscribers whose accounts are active (typing's audience). */
export const activeSubscriberIds = statement<{ userId: number }, [streamId: number]>(
  'messaging.active_subscriber_ids',
  `SELECT s.user_id AS "userId" FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = $1 AND s.active AND u.is_active ORDER BY s.user_id`,
);

/** Channel names by id (what a message record shows as `display_recipient`). */
export const channelNames = statement<{ id: number; name: string }, [streamIds: number[]]>(
  'messaging.channel_names',
  `SELECT id, name FROM streams WHERE id = ANY($1::int[])`,
);

/** Direct-message groups by id, with their members. */
export const directMessageGroups = statement<{ id: number; memberIds: number[] }, [groupIds: number[]]>(
  'messaging.direct_message_groups',
  `SELECT id, member_ids AS "memberIds" FROM direct_message_groups WHERE id = ANY($1::int[])`,
);

/** The direct-message group of a set of people (their sorted ids, comma-joined), if it exists. */
export const directMessageGroupByKey = statement<{ id: number }, [realmId: number, memberKey: string]>(
  'messaging.direct_message_group_by_key',
  `SELECT id FROM direct_message_groups WHERE realm_id = $1 AND member_key = $2`,
);

/** Creates the direct-message group of a set of people; no row when it exists already. */
export const createDirectMessageGroup = statement<{ id: number }, [realmId: number, memberKey: string, memberIds: number[]]>(
  'messaging.create_direct_message_group',
  `INSERT INTO direct_message_groups (realm_id, member_key, member_ids) VALUES ($1, $2, $3::int[])
   ON CONFLICT (realm_id, member_key) DO NOTHING
   RETURNING id`,
);

/** What messaging needs to know about a user (users-groups' table, read only). */
export interface DirectoryUserRow {
  id: number;
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
}

const DIRECTORY_COLUMNS = `id, realm_id AS "realmId", delivery_email AS "deliveryEmail", full_name AS "fullName", role,
  is_active AS "isActive", is_bot AS "isBot"`;

/** Active users of the organization among these ids. */
export const activeUsersByIds = statement<DirectoryUserRow, [realmId: number, userIds: number[]]>(
  'messaging.active_users_by_ids',
  `SELECT ${DIRECTORY_COLUMNS} FROM users WHERE realm_id = $1 AND is_active AND id = ANY($2::int[])`,
);

/**
 * For each address in order, the active user with that real address (any case) or with its
 * dummy id (Zulip's `user<id>@…` form), in one round trip; `position` is the address's 1-based
 * place in the list, and an address nobody has is absent.
 */
export const activeUsersByEmails = statement<DirectoryUserRow & { position: number }, [realmId: number, emails: string[], dummyIds: (number | null)[]]>(
  'messaging.active_users_by_emails',
  `SELECT e.position::int AS position, u.*
     FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS e(email, dummy_id, position)
     CROSS JOIN LATERAL (
       SELECT ${DIRECTORY_COLUMNS} FROM users
        WHERE realm_id = $1 AND is_active AND (lower(delivery_email) = lower(e.email) OR id = e.dummy_id)
        ORDER BY id LIMIT 1) u`,
);

/** Every active user of the organization, in id order. */
export const activeUsersOfRealm = statement<DirectoryUserRow, [realmId: number]>(
  'messaging.active_users_of_realm',
  `SELECT ${DIRECTORY_COLUMNS} FROM users WHERE realm_id = $1 AND is_active ORDER BY id`,
);

// ---- POST /register: the message-derived state (flag bits and limits are parameters) ----

/** The newest message a user received, null when none. */
export const maxReceivedMessageId = statement<{ id: number | null }, [userId: number]>(
  'messaging.max_received_message_id',
  `SELECT max(message_id) AS id FROM user_messages WHERE user_id = $1`,
);

/** A user's topic visibility policies other than `inherit`, outside archived channels. */
export const userTopicPolicies = statement<
  { streamId: number; topicName: string; lastUpdated: Date; policy: number },
  [userId: number, inherit: number]
>(
  'messaging.user_topic_policies',
  `SELECT ut.stream_id AS "streamId", ut.topic_name AS "topicName", ut.last_updated AS "lastUpdated", ut.visibility_policy AS policy
   FROM user_topics ut JOIN streams s ON s.id = ut.stream_id
   WHERE ut.user_id = $1 AND ut.visibility_policy <> $2 AND NOT s.is_archived
   ORDER BY ut.id`,
);

/** Every topic visibility policy of a user, archived channels included. */
export const allUserTopicPolicies = statement<{ streamId: number; topicName: string; policy: number }, [userId: number]>(
  'messaging.all_user_topic_policies',
  `SELECT stream_id AS "streamId", topic_name AS "topicName", visibility_policy AS policy FROM user_topics WHERE user_id = $1`,
);

/** The direct conversations among a user's newest direct messages, newest first, with their newest message. */
export const recentDirectConversations = statement<
  { maxMessageId: number; memberIds: number[] },
  [userId: number, isPrivateFlag: number, limit: number]
>(
  'messaging.recent_direct_conversations',
  `WITH recent AS (
     SELECT message_id FROM user_messages
     WHERE user_id = $1 AND (flags & $2) <> 0
     ORDER BY message_id DESC LIMIT $3
   )
   SELECT max(m.id)::int AS "maxMessageId", g.member_ids AS "memberIds"
   FROM recent r JOIN messages m ON m.id = r.message_id JOIN direct_message_groups g ON g.id = m.dm_group_id
   GROUP BY g.id, g.member_ids
   ORDER BY "maxMessageId" DESC`,
);

export interface UnreadRow {
  id: number;
  flags: number;
  streamId: number | null;
  topic: string;
  memberIds: number[] | null;
  channelMuted: boolean;
}

/** A user's newest unread messages (at most `limit`), oldest first, with where each was sent. */
export const unreadMessages = statement<UnreadRow, [userId: number, readFlag: number, limit: number]>(
  'messaging.unread_messages',
  `WITH unread AS (
     SELECT message_id, flags FROM user_messages
     WHERE user_id = $1 AND (flags & $2) = 0
     ORDER BY message_id DESC LIMIT $3
   )
   SELECT u.message_id AS id, u.flags, m.stream_id AS "streamId", m.topic, g.member_ids AS "memberIds",
     coalesce(s.is_muted, false) AS "channelMuted"
   FROM unread u JOIN messages m ON m.id = u.message_id
   LEFT JOIN direct_message_groups g ON g.id = m.dm_group_id
   LEFT JOIN subscriptions s ON s.user_id = $1 AND s.stream_id = m.stream_id
   ORDER BY u.message_id`,
);

// ---- channel listings (POST /register's channel lists, GET /users/me/subscriptions) ----

/** The caller's own subscription row to a channel, as listings show it (`active` false once left). */
export interface OwnSubscription extends SubscriptionRow {
  active: boolean;
}

export type ChannelWithOwnSubscriptionRow = StreamModel & { subscription: OwnSubscription | null };

/** The organization's channels in id order (archived ones too when asked), each with the caller's subscription row if any. */
export const channelsWithOwnSubscription = statement<
  ChannelWithOwnSubscriptionRow,
  [realmId: number, userId: number, includeArchived: boolean]
>(
  'messaging.channels_with_own_subscription',
  `SELECT s.id, s.realm_id AS "realmId", s.name, s.description, s.rendered_description AS "renderedDescription",
     s.invite_only AS "inviteOnly", s.history_public_to_subscribers AS "historyPublicToSubscribers",
     s.is_web_public AS "isWebPublic", s.is_archived AS "isArchived", s.creator_id AS "creatorId",
     s.first_message_id AS "firstMessageId", s.date_created AS "dateCreated", ${CHANNEL_SETTING_COLUMNS},
     CASE WHEN sub.id IS NULL THEN NULL ELSE json_build_object(
       'active', sub.active, 'color', sub.color, 'isMuted', sub.is_muted, 'pinToTop', sub.pin_to_top,
       'desktopNotifications', sub.desktop_notifications, 'audibleNotifications', sub.audible_notifications,
       'pushNotifications', sub.push_notifications, 'emailNotifications', sub.email_notifications,
       'wildcardMentionsNotify', sub.wildcard_mentions_notify) END AS subscription
   FROM streams s LEFT JOIN subscriptions sub ON sub.stream_id = s.id AND sub.user_id = $2
   WHERE s.realm_id = $1 AND ($3 OR NOT s.is_archived)
   ORDER BY s.id`,
);

/** The active subscribers, with active accounts, of each of these channels, in user id order. */
export const activeSubscribersOfChannels = statement<{ streamId: number; userId: number }, [streamIds: number[]]>(
  'messaging.active_subscribers_of_channels',
  `SELECT s.stream_id AS "streamId", s.user_id AS "userId" FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = ANY($1::int[]) AND s.active AND u.is_active
   ORDER BY s.user_id`,
);

/** How many active subscribers with active accounts each of these channels has (none: no row). */
export const subscriberCounts = statement<{ streamId: number; count: number }, [streamIds: number[]]>(
  'messaging.subscriber_counts',
  `SELECT s.stream_id AS "streamId", count(*)::int AS count FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = ANY($1::int[]) AND s.active AND u.is_active GROUP BY s.stream_id`,
);

/** Which of these channels have a message sent since a time. */
export const channelsWithMessagesSince = statement<{ streamId: number }, [streamIds: number[], since: Date]>(
  'messaging.channels_with_messages_since',
  `SELECT DISTINCT stream_id AS "streamId" FROM messages WHERE stream_id = ANY($1::int[]) AND date_sent >= $2`,
);

/** A stored sender and their organization, whatever their state: what a scheduled send re-checks. */
export interface StoredSenderRow {
  id: number;
  fullName: string;
  deliveryEmail: string;
  role: number;
  isBot: boolean;
  isActive: boolean;
  subdomain: string;
  realmName: string;
  realmDeactivated: boolean;
}

export const storedSender = statement<StoredSenderRow, [realmId: number, userId: number]>(
  'messaging.stored_sender',
  `SELECT u.id, u.full_name AS "fullName", u.delivery_email AS "deliveryEmail", u.role, u.is_bot AS "isBot",
     u.is_active AS "isActive", r.subdomain, r.name AS "realmName", r.deactivated AS "realmDeactivated"
   FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.realm_id = $1 AND u.id = $2`,
);

/** A user's muted topics with their channel's name, leaving out archived channels (Zulip's get_topic_mutes). */
export const mutedTopicsOf = statement<{ streamName: string; topicName: string; lastUpdated: Date }, [userId: number, muted: number]>(
  'messaging.muted_topics_of',
  `SELECT s.name AS "streamName", ut.topic_name AS "topicName", ut.last_updated AS "lastUpdated"
   FROM user_topics ut JOIN streams s ON s.id = ut.stream_id
   WHERE ut.user_id = $1 AND ut.visibility_policy = $2 AND NOT s.is_archived
   ORDER BY ut.id`,
);

/** The ids of the messages a user starred, ascending (Zulip's get_starred_message_ids). */
export const starredMessageIds = statement<{ id: number }, [userId: number, starredFlag: number]>(
  'messaging.starred_message_ids',
  `SELECT message_id AS id FROM user_messages WHERE user_id = $1 AND (flags & $2) <> 0 ORDER BY message_id`,
);

/** The caller's rows of these messages, with what a flag change reports about each. */
export interface FlaggableRow {
  messageId: number;
  flags: number;
  streamId: number | null;
  topic: string;
  dmMemberIds: number[] | null;
  subscribed: boolean;
  channelMuted: boolean;
}
export const flaggableMessages = statement<FlaggableRow, [userId: number, messageIds: number[]]>(
  'messaging.flaggable_messages',
  `SELECT um.message_id AS "messageId", um.flags, m.stream_id AS "streamId", m.topic,
     g.member_ids AS "dmMemberIds", coalesce(sub.active, false) AS subscribed, coalesce(sub.is_muted, false) AS "channelMuted"
   FROM user_messages um JOIN messages m ON m.id = um.message_id
   LEFT JOIN direct_message_groups g ON g.id = m.dm_group_id
   LEFT JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = um.user_id
   WHERE um.user_id = $1 AND um.message_id = ANY($2::int[])`,
);

/** Sets (or clears) one flag bit on the caller's rows of these messages; answers those that changed. */
export const setMessageFlag = statement<{ messageId: number }, [userId: number, messageIds: number[], bit: number]>(
  'messaging.set_message_flag',
  `UPDATE user_messages SET flags = flags | $3 WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) = 0
   RETURNING message_id AS "messageId"`,
);
export const clearMessageFlag = statement<{ messageId: number }, [userId: number, messageIds: number[], bit: number]>(
  'messaging.clear_message_flag',
  `UPDATE user_messages SET flags = flags & ~$3 WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) <> 0
   RETURNING message_id AS "messageId"`,
);

/** Marks every unread message of the user read; answers which. */
export const markAllRead = statement<{ messageId: number }, [userId: number]>(
  'messaging.mark_all_read',
  `UPDATE user_messages SET flags = flags | 1 WHERE user_id = $1 AND (flags & 1) = 0 RETURNING message_id AS "messageId"`,
);

/** Marks the user's unread messages of one channel read; answers which. */
export const markChannelRead = statement<{ messageId: number }, [userId: number, streamId: number]>(
  'messaging.mark_channel_read',
  `UPDATE user_messages um SET flags = um.flags | 1 FROM messages m
   WHERE m.id = um.message_id AND um.user_id = $1 AND m.stream_id = $2 AND (um.flags & 1) = 0
   RETURNING um.message_id AS "messageId"`,
);

// ---- message actions: reading one message, editing, moving, deleting, reactions ----

/** A stored message with what acting on it needs: the caller's row, access, the channel's settings. */
export interface ActionableMessageRow {
  id: number;
  realmId: number;
  senderId: number;
  streamId: number | null;
  dmGroupId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  sendingClient: string;
  dateSent: Date;
  scheduledMessageId: number | null;
  editHistory: unknown;
  lastEditTime: Date | null;
  lastMoveTime: Date | null;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** The caller's flags; null when they have no row (a channel message read through its history). */
  flags: number | null;
  /** Zulip's has_message_access for the caller. */
  readable: boolean;
  channelName: string | null;
  historyPublicToSubscribers: boolean | null;
  inviteOnly: boolean | null;
  canAdministerChannelGroupId: number | null;
  canDeleteAnyMessageGroupId: number | null;
  canDeleteOwnMessageGroupId: number | null;
  canMoveMessagesWithinChannelGroupId: number | null;
  canResolveTopicsGroupId: number | null;
}

/**
 * One message of the organization with the caller's row and whether they may read it (Zulip's
 * has_message_access, as `readable_message_ids`): a recipient; an active subscriber, from the
 * moment they subscribed when history is protected; any non-guest for a public channel.
 */
export const messageForUser = statement<ActionableMessageRow, [realmId: number, messageId: number, userId: number, guestRole: number]>(
  'messaging.message_for_user',
  `SELECT m.id, m.realm_id AS "realmId", m.sender_id AS "senderId", m.stream_id AS "streamId", m.dm_group_id AS "dmGroupId",
     m.topic, m.content, m.rendered_content AS "renderedContent", m.sending_client AS "sendingClient", m.date_sent AS "dateSent",
     m.scheduled_message_id AS "scheduledMessageId", m.edit_history AS "editHistory", m.last_edit_time AS "lastEditTime",
     m.last_move_time AS "lastMoveTime", m.has_link AS "hasLink", m.has_image AS "hasImage", m.has_attachment AS "hasAttachment", um.flags,
     (um.user_id IS NOT NULL
      OR (sub.id IS NOT NULL AND (s.history_public_to_subscribers OR m.id > sub.subscribed_after_message_id))
      OR (s.id IS NOT NULL AND NOT s.invite_only AND u.role <> $4)) AS readable,
     s.name AS "channelName", s.history_public_to_subscribers AS "historyPublicToSubscribers", s.invite_only AS "inviteOnly",
     s.can_administer_channel_group_id AS "canAdministerChannelGroupId", s.can_delete_any_message_group_id AS "canDeleteAnyMessageGroupId",
     s.can_delete_own_message_group_id AS "canDeleteOwnMessageGroupId",
     s.can_move_messages_within_channel_group_id AS "canMoveMessagesWithinChannelGroupId", s.can_resolve_topics_group_id AS "canResolveTopicsGroupId"
   FROM messages m
   JOIN users u ON u.id = $3 AND u.realm_id = $1
   LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = $3
   LEFT JOIN streams s ON s.id = m.stream_id
   LEFT JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = $3 AND sub.active
   WHERE m.id = $2 AND m.realm_id = $1`,
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

/** The reactions of these messages, oldest first. */
export const reactionsOfMessages = statement<
  { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string },
  [messageIds: number[]]
>(
  'messaging.reactions_of_messages',
  `SELECT message_id AS "messageId", user_id AS "userId", emoji_name AS "emojiName", emoji_code AS "emojiCode",
     reaction_type AS "reactionType"
   FROM reactions WHERE message_id = ANY($1::int[]) ORDER BY id`,
);

/** Adds a reaction; no row when the user already reacted with that emoji. */
export const insertReaction = statement<{ id: number }, [messageId: number, userId: number, name: string, code: string, type: string]>(
  'messaging.insert_reaction',
  `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (user_id, message_id, emoji_code, reaction_type) DO NOTHING RETURNING id`,
);

/** Removes a user's reaction; answers its name, no row when there was none. */
export const deleteReaction = statement<{ emojiName: string }, [messageId: number, userId: number, code: string, type: string]>(
  'messaging.delete_reaction',
  `DELETE FROM reactions WHERE message_id = $1 AND user_id = $2 AND emoji_code = $3 AND reaction_type = $4 RETURNING emoji_name AS "emojiName"`,
);

/** An organization's custom emoji by name (active ones) or by id (any), for checking a reaction's emoji. */
export const customEmojiByName = statement<{ id: number }, [realmId: number, name: string]>(
  'messaging.custom_emoji_by_name',
  `SELECT id FROM realm_emoji WHERE realm_id = $1 AND name = $2 AND NOT deactivated ORDER BY id LIMIT 1`,
);
export const customEmojiById = statement<{ id: number; name: string; deactivated: boolean }, [realmId: number, id: number]>(
  'messaging.custom_emoji_by_id',
  `SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = $1 AND id = $2`,
);

/** A row for a message the user reads through its channel's history (Zulip's historical UserMessage), read. */
export const insertHistoricalRow = statement<Record<string, never>, [userId: number, messageId: number, flags: number]>(
  'messaging.insert_historical_row',
  `INSERT INTO user_messages (user_id, message_id, flags) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
);

/**
 * Who is told of an action on these messages (Zulip's event_recipient_ids_for_action_on_messages):
 * active users with a row of any of them, with their flags on `messageId` (null without one),
 * and, for a channel whose history is public to subscribers, its other active subscribers.
 */
export const messagesAudience = statement<{ userId: number; flags: number | null }, [messageIds: number[], messageId: number, streamId: number | null]>(
  'messaging.messages_audience',
  `WITH holders AS (SELECT DISTINCT um.user_id FROM user_messages um WHERE um.message_id = ANY($1::int[]))
   SELECT h.user_id AS "userId", t.flags FROM holders h
     JOIN users u ON u.id = h.user_id AND u.is_active
     LEFT JOIN user_messages t ON t.user_id = h.user_id AND t.message_id = $2
   UNION ALL
   SELECT s.user_id AS "userId", NULL AS flags FROM subscriptions s
     JOIN streams st ON st.id = s.stream_id AND st.history_public_to_subscribers
     JOIN users u ON u.id = s.user_id AND u.is_active
   WHERE s.stream_id = $3 AND s.active AND s.user_id NOT IN (SELECT user_id FROM holders)`,
);

/**
 * The ids of a topic's messages (whatever the topic's case) from `fromId` on, ascending; with
 * protected history only those the user received.
 */
export const topicMessageIdsFrom = statement<{ id: number }, [streamId: number, topic: string, fromId: number, historyPublic: boolean, userId: number]>(
  'messaging.topic_message_ids_from',
  `SELECT m.id FROM messages m WHERE m.stream_id = $1 AND lower(m.topic) = lower($2) AND m.id >= $3
     AND ($4 OR EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = $5 AND um.message_id = m.id))
   ORDER BY m.id`,
);

/**
 * An edit: content (null keeps it), topic and channel (null keeps them) of these messages, with
 * one edit-history entry prepended to each (Zulip keeps newest first). `edited` and `moved`
 * set last_edit_time and last_move_time.
 */
export const editMessages = statement<
  { id: number },
  [
    messageIds: number[],
    content: string | null,
    renderedContent: string | null,
    topic: string | null,
    streamId: number | null,
    at: Date,
    entry: string,
    hasLink: boolean | null,
    hasImage: boolean | null,
    hasAttachment: boolean | null,
  ]
>(
  'messaging.edit_messages',
  `UPDATE messages SET content = coalesce($2, content), rendered_content = coalesce($3, rendered_content),
     has_link = coalesce($8, has_link), has_image = coalesce($9, has_image), has_attachment = coalesce($10, has_attachment),
     topic = coalesce($4, topic), stream_id = coalesce($5, stream_id),
     last_edit_time = CASE WHEN $2::text IS NULL THEN last_edit_time ELSE $6 END,
     last_move_time = CASE WHEN $4::text IS NULL AND $5::int IS NULL THEN last_move_time ELSE $6 END,
     edit_history = jsonb_build_array($7::jsonb) || coalesce(edit_history, '[]'::jsonb)
   WHERE id = ANY($1::int[]) RETURNING id`,
);

/**
 * After a content edit: each recipient's mention bits as the new content says: `mentioned` for
 * $2, the topic wildcard's bit for $3 (the topic's participants), $4 for everyone (the channel wildcard).
 */
export const setMentionFlags = statement<
  Record<string, never>,
  [messageId: number, mentionedIds: number[], topicWildcardIds: number[], everyoneBits: number, mentionBits: number]
>(
  'messaging.set_mention_flags',
  `UPDATE user_messages SET flags = (flags & ~($5::int)) | (CASE WHEN user_id = ANY($2::int[]) THEN 8 ELSE 0 END)
     | (CASE WHEN user_id = ANY($3::int[]) THEN 32 ELSE 0 END) | $4::int
   WHERE message_id = $1`,
);

/**
 * A move to another channel: the rows of users who may not read the new channel go (answered,
 * to tell them the messages are gone), and its active subscribers without rows get them, read.
 */
export const moveRecipients = statement<{ userId: number }, [messageIds: number[], newStreamId: number, guestRole: number]>(
  'messaging.move_recipients',
  `WITH target AS (SELECT id, invite_only FROM streams WHERE id = $2),
   gone AS (
     DELETE FROM user_messages um USING users u, target t
     WHERE um.message_id = ANY($1::int[]) AND u.id = um.user_id
       AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.stream_id = t.id AND s.user_id = um.user_id AND s.active)
       AND (t.invite_only OR u.role = $3)
     RETURNING um.user_id
   ), added AS (
     INSERT INTO user_messages (user_id, message_id, flags)
     SELECT s.user_id, m.id, 1 FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active, unnest($1::int[]) AS m(id)
     WHERE s.stream_id = $2 AND s.active
     ON CONFLICT DO NOTHING
   )
   SELECT DISTINCT user_id AS "userId" FROM gone`,
);

/**
 * Deletes one message (its recipients' rows and reactions go with it) and moves the channel's
 * first_message_id on when it was that one; answers the channel's new first message when it moved.
 */
export const deleteOneMessage = statement<{ firstMessageId: number | null; moved: boolean }, [messageId: number]>(
  'messaging.delete_one_message',
  `WITH gone AS (DELETE FROM messages WHERE id = $1 RETURNING id, stream_id),
   moved AS (
     UPDATE streams s SET first_message_id = (SELECT min(m.id) FROM messages m WHERE m.stream_id = s.id AND m.id <> $1)
     FROM gone WHERE s.id = gone.stream_id AND s.first_message_id = gone.id
     RETURNING s.first_message_id
   )
   SELECT (SELECT first_message_id FROM moved) AS "firstMessageId", EXISTS (SELECT 1 FROM moved) AS moved FROM gone`,
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

/**
 * A whole topic moved: its visibility policies move with it (replacing any the users had in the
 * new topic); answers each user's policy, now in the new topic.
 */
export const moveTopicPolicies = statement<
  { userId: number; policy: number },
  [oldStreamId: number, oldTopic: string, newStreamId: number, newTopic: string]
>(
  'messaging.move_topic_policies',
  `WITH moved AS (
     DELETE FROM user_topics WHERE stream_id = $1 AND lower(topic_name) = lower($2) RETURNING user_id, visibility_policy
   )
   INSERT INTO user_topics (user_id, stream_id, topic_name, visibility_policy, last_updated)
   SELECT user_id, $3, $4, visibility_policy, now() FROM moved
   ON CONFLICT (user_id, stream_id, topic_name) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = now()
   RETURNING user_id AS "userId", visibility_policy AS policy`,
);

/** Locks a message for an edit (until the transaction ends) and answers what the edit read it as. */
export const lockMessageForEdit = statement<{ content: string; topic: string; streamId: number | null }, [messageId: number]>(
  'messaging.lock_message_for_edit',
  `SELECT content, topic, stream_id AS "streamId" FROM messages WHERE id = $1 FOR UPDATE`,
);

// ---- search and narrows ----

/** Where a message was sent: what the `with` operator turns into a conversation. */
export const messageConversation = statement<{ streamId: number | null; topic: string; dmGroupId: number | null }, [realmId: number, messageId: number]>(
  'messaging.message_conversation',
  `SELECT stream_id AS "streamId", topic, dm_group_id AS "dmGroupId" FROM messages WHERE realm_id = $1 AND id = $2`,
);

/**
 * A search's highlighting (Zulip's match_content and match_subject): the rendered HTML and the
 * HTML-escaped topic with each word the search matched between <ts-match> marks (which neither
 * can contain), which the caller turns into Zulip's highlight spans. ts_headline's parser
 * leaves tags alone, so only text is marked.
 */
export const searchHighlights = statement<{ id: number; matchContent: string; matchSubject: string }, [messageIds: number[], search: string]>(
  'messaging.search_highlights',
  `SELECT m.id,
     ts_headline('english', m.rendered_content, q, 'HighlightAll=TRUE, StartSel=<ts-match>, StopSel=</ts-match>') AS "matchContent",
     ts_headline('english', replace(replace(replace(replace(replace(m.topic, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;'),
       q, 'HighlightAll=TRUE, StartSel=<ts-match>, StopSel=</ts-match>') AS "matchSubject"
   FROM messages m, plainto_tsquery('english', $2) q
   WHERE m.id = ANY($1::int[])`,
);

/** A user's visibility policy of a topic (matched whatever its case), if any. */
export const topicVisibilityOf = statement<{ policy: number; topicName: string }, [userId: number, streamId: number, topic: string]>(
  'messaging.topic_visibility_of',
  `SELECT visibility_policy AS policy, topic_name AS "topicName" FROM user_topics
   WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3)`,
);

/** Removes a user's visibility policy of a topic (back to inherit); the rows removed. */
export const clearTopicVisibility = statement<{ id: number }, [userId: number, streamId: number, topic: string]>(
  'messaging.clear_topic_visibility',
  `DELETE FROM user_topics WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3) RETURNING id`,
);

/** A channel of the organization, archived or not, whatever the caller's access. */
export const channelIdInRealm = statement<{ id: number }, [streamId: number, realmId: number]>(
  'messaging.channel_id_in_realm',
  `SELECT id FROM streams WHERE id = $1 AND realm_id = $2`,
);

import { statement } from '@teamchat/db';

/** `user_messages`' hot-path statements (MessageFlagsRepository's): each user's row of a message and its flag bits. */

/** The newest message a user received, null when none. */
export const maxReceivedMessageId = statement<{ id: number | null }, [userId: number]>(
  'messaging.max_received_message_id',
  `SELECT max(message_id) AS id FROM user_messages WHERE user_id = $1`,
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

/**
 * A row for a message the user reads through its channel's history (Zulip's historical
 * UserMessage), read. The message's row is locked against deletion meanwhile, as a foreign key
 * would (user_messages has none, see the migration): a deletion either went first (no row
 * written) or waits, and its trigger then takes this row too.
 */
export const insertHistoricalRow = statement<Record<string, never>, [userId: number, messageId: number, flags: number]>(
  'messaging.insert_historical_row',
  `INSERT INTO user_messages (user_id, message_id, flags)
   SELECT $1, m.id, $3 FROM messages m WHERE m.id = $2 FOR KEY SHARE
   ON CONFLICT DO NOTHING`,
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
   ), moved AS (
     -- Locked against deletion meanwhile, as a foreign key would (see insertHistoricalRow).
     SELECT id FROM messages WHERE id = ANY($1::int[]) FOR KEY SHARE
   ), added AS (
     INSERT INTO user_messages (user_id, message_id, flags)
     SELECT s.user_id, m.id, 1 FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active, moved m
     WHERE s.stream_id = $2 AND s.active
     ON CONFLICT DO NOTHING
   )
   SELECT DISTINCT user_id AS "userId" FROM gone`,
);

/** Marks the user's unread messages from one sender read (muting that sender); answers which. */
export const markSenderRead = statement<{ messageId: number }, [userId: number, senderId: number]>(
  'messaging.mark_sender_read',
  `UPDATE user_messages um SET flags = um.flags | 1 FROM messages m
   WHERE m.id = um.message_id AND um.user_id = $1 AND m.sender_id = $2 AND (um.flags & 1) = 0
   RETURNING um.message_id AS "messageId"`,
);

/**
 * Who has read a message, as Zulip's read_receipts view decides (zerver/views/read_receipts.py):
 * active users whose send_read_receipts (their own, else the organization's default, else on)
 * shares it, never the sender, nobody the viewer muted or who muted the viewer; bots included,
 * the viewer included when they read it.
 */
export const readReceipts = statement<{ userId: number }, [messageId: number, viewerId: number]>(
  'messaging.read_receipts',
  `SELECT um.user_id AS "userId" FROM user_messages um
     JOIN messages m ON m.id = um.message_id
     JOIN users u ON u.id = um.user_id
     JOIN realms r ON r.id = u.realm_id
    WHERE um.message_id = $1 AND (um.flags & 1) <> 0 AND um.user_id <> m.sender_id AND u.is_active
      AND COALESCE((u.settings->>'send_read_receipts')::boolean, (r.user_settings_defaults->>'send_read_receipts')::boolean, true)
      AND NOT EXISTS (SELECT 1 FROM muted_users mu
                       WHERE (mu.user_id = $2 AND mu.muted_user_id = um.user_id) OR (mu.user_id = um.user_id AND mu.muted_user_id = $2))
    ORDER BY um.user_id`,
);

/** Everyone who has a row for the message (Zulip's UserMessage rows): who received it. */
export const messageHolders = statement<{ userId: number }, [messageId: number]>(
  'messaging.message_holders',
  `SELECT user_id AS "userId" FROM user_messages WHERE message_id = $1 ORDER BY user_id`,
);

import { statement } from '@teamchat/db';

/** `messages`' hot-path statements (MessagesRepository's). */

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
  dateSent: Date,
  outboxSubjects: string[],
  outboxHeads: string[],
  outboxTails: (string | null)[],
];

/**
 * The one message-writing statement; `keyed` adds the scheduler's idempotency key as $18. It
 * also answers the topic's state before the message (every part of one statement sees the
 * same snapshot, which the insert's own rows are not in): whether the topic had messages, and
 * who had a visibility policy for it. A direct message ($3 null) has no topic state.
 *
 * The events announcing the message are written by the same statement, as outbox rows
 * (libs/db event-outbox): $15..$17 are their subjects and their JSON cut where the new message's
 * id goes (a null tail: no id in it), so they commit with the message or not at all.
 */
const insertMessageText = (keyed: boolean) => `WITH prior AS (
     SELECT EXISTS (SELECT 1 FROM messages m WHERE m.stream_id = $3 AND lower(m.topic) = lower($5)) AS had_messages,
       coalesce((SELECT json_agg(json_build_object('userId', t.user_id, 'policy', t.visibility_policy)) FROM user_topics t
                 WHERE t.stream_id = $3 AND lower(t.topic_name) = lower($5)), '[]'::json) AS policies
   ), message AS (
     INSERT INTO messages (realm_id, sender_id, stream_id, dm_group_id, topic, content, rendered_content, sending_client,
       has_link, has_image, has_attachment, date_sent${keyed ? ', scheduled_message_id' : ''})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, $14${keyed ? ', $18' : ''})${keyed ? '\n     ON CONFLICT (scheduled_message_id) WHERE scheduled_message_id IS NOT NULL DO NOTHING' : ''}
     RETURNING id, date_sent
   ), recipients AS (
     INSERT INTO user_messages (user_id, message_id, flags)
     SELECT r.user_id, message.id, r.flags FROM message, unnest($9::int[], $10::int[]) AS r(user_id, flags)
   ), first_message AS (
     UPDATE streams SET first_message_id = message.id FROM message
     WHERE streams.id = $3 AND streams.first_message_id IS NULL
   ), outbox AS (
     INSERT INTO event_outbox (subject, realm_id, payload)
     SELECT e.subject, $1, CASE WHEN e.tail IS NULL THEN e.head ELSE e.head || message.id || e.tail END
     FROM message, unnest($15::text[], $16::text[], $17::text[]) WITH ORDINALITY AS e(subject, head, tail, n)
     ORDER BY e.n
     RETURNING id
   )
   SELECT id, prior.had_messages AS "topicHadMessages", prior.policies AS "topicPolicies",
     ARRAY(SELECT outbox.id FROM outbox) AS "outboxIds"
   FROM message, prior`;

/** What the insert answers: the message's id, the topic's state before it, and its outbox rows' ids. */
export interface InsertedMessageRow {
  id: number;
  topicHadMessages: boolean;
  topicPolicies: { userId: number; policy: number }[];
  outboxIds: string[];
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

/** When each of the messages was sent (a move's time limit), in id order. */
export const messageSendTimes = statement<{ id: number; dateSent: Date }, [messageIds: number[]]>(
  'messaging.message_send_times',
  `SELECT m.id, m.date_sent AS "dateSent" FROM messages m WHERE m.id = ANY($1::int[]) ORDER BY m.id`,
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

/**
 * Which of the given messages a user may read (Zulip's has_message_access): a recipient (a
 * user_messages row); an active subscriber of the channel, from the moment they subscribed when
 * its history is protected; any member but a guest for a public channel. Messages of another
 * organization are never readable. Asked by the uploads service, which lets whoever may read a
 * message that links a file read the file.
 */
export const readableMessageIds = statement<{ id: number }, [realmId: number, userId: number, messageIds: number[], guestRole: number]>(
  'messaging.readable_message_ids',
  `SELECT m.id FROM messages m
     JOIN users u ON u.id = $2 AND u.realm_id = $1 AND u.is_active
     LEFT JOIN streams s ON s.id = m.stream_id
     LEFT JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = $2 AND sub.active
    WHERE m.id = ANY($3::int[]) AND m.realm_id = $1
      AND (EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = $2 AND um.message_id = m.id)
           OR (sub.id IS NOT NULL AND (s.history_public_to_subscribers OR m.id > sub.subscribed_after_message_id))
           OR (s.id IS NOT NULL AND NOT s.invite_only AND u.role <> $4))`,
);

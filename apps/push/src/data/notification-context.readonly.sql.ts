import { statement } from '@teamchat/db';

/**
 * READ-ONLY: what notifications need from messaging's tables (messages, user_messages,
 * subscriptions, user_topics, streams, direct_message_groups, muted_users), users-groups' (users, realms) and
 * presence's (user_presence).
 * Push never writes these tables.
 */

export interface NotifiedMessageRow {
  id: number;
  realmId: number;
  senderId: number;
  streamId: number | null;
  streamName: string | null;
  dmMembers: number[] | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: number;
  senderName: string;
  senderEmail: string;
  senderAvatarSource: string;
  senderAvatarVersion: number;
  realmName: string;
  subdomain: string;
}

/** Messages with their sender, channel or conversation, and organization (a WHERE follows). */
const NOTIFIED_MESSAGES = `SELECT m.id, m.realm_id AS "realmId", m.sender_id AS "senderId", m.stream_id AS "streamId", s.name AS "streamName",
          g.member_ids AS "dmMembers", m.topic, m.content, m.rendered_content AS "renderedContent",
          floor(extract(epoch FROM m.date_sent))::int AS "dateSent",
          u.full_name AS "senderName", u.delivery_email AS "senderEmail", u.avatar_source AS "senderAvatarSource",
          u.avatar_version AS "senderAvatarVersion", r.name AS "realmName", r.subdomain
     FROM messages m
     JOIN users u ON u.id = m.sender_id
     JOIN realms r ON r.id = m.realm_id
     LEFT JOIN streams s ON s.id = m.stream_id
     LEFT JOIN direct_message_groups g ON g.id = m.dm_group_id`;

/** A message with its sender, channel or conversation, and organization. */
export const notifiedMessage = statement<NotifiedMessageRow, [messageId: number]>(
  'push.notified_message',
  `${NOTIFIED_MESSAGES}
    WHERE m.id = $1`,
);

export interface RecipientRow {
  messageId: number;
  userId: number;
  flags: number;
  isActive: boolean;
  isBot: boolean;
  settings: unknown;
  realmDefaults: unknown;
  subMuted: boolean | null;
  subPush: boolean | null;
  subEmail: boolean | null;
  subWildcard: boolean | null;
  visibility: number | null;
  /** Active in the presence threshold (Zulip's OFFLINE_THRESHOLD_SECS) by user_presence. */
  presenceActive: boolean;
}

/** Whether the message's organization turns a setting on for users who have not set it (`m`: the message's row below). */
const realmDefault = (name: string) => `COALESCE((m.realm_defaults->>'${name}')::boolean, false)`;

/** A user's setting as stored, else the organization's default, else false (`u`, `m`: the recipient's and the message's rows below). */
const setting = (name: string) => `COALESCE((u.settings->>'${name}')::boolean, ${realmDefault(name)})`;

/**
 * The users who turned on push or email notifications for every channel they are in: few, and
 * found through the partial index users_stream_notifications_idx (its predicate, word for word).
 */
const STREAM_NOTIFICATIONS_ON = `(settings->'enable_stream_push_notifications' = 'true' OR settings->'enable_stream_email_notifications' = 'true')`;

/**
 * The recipients of these messages who might be notified, with their settings, their
 * subscription to the channel and their policy for the topic: one round trip for a batch of
 * messages. Left out in SQL already (most recipients of most channel messages): the sender,
 * bots, deactivated users, recipients who muted the sender (Zulip's sender_is_muted: never
 * notified), and a channel message's recipients who are not mentioned, do not follow the topic
 * and have neither push nor email notifications on for the channel.
 *
 * Each table is read only where the messages reach, however large it is and whatever the plan:
 * the messages by id (with their organization's defaults: a message's recipients are its
 * organization's users), their recipients' rows, the channels' subscriptions and topic policies
 * by channel, each gathered once (materialized CTEs) and joined in memory. A channel message's
 * recipient can only be notified when mentioned, following the topic, with notifications on
 * for the channel, or with them on for every channel (their settings, or the organization's
 * default): `maybe` keeps those, judged without reading `users` but for the few who turned
 * them on everywhere (a partial index), so only their rows are read. Reading every recipient's
 * row, settings and all, was half of the statement's time for a channel of a thousand. Presence
 * only for the rows kept, and the mute check a look-up per recipient (`OFFSET 0` keeps it a
 * subplan). Written as plain joins, push's generic plan (see DbModule.withGenericPlans)
 * merge-joined the recipients with `messages` and `users` in id order, reading each from its
 * first row up to the highest id asked for: 84–108 ms for a message of id 200,000 on a scratch
 * database, growing with every message sent (candidate-recipients.spec.ts counts the rows read).
 */
export const candidateRecipients = statement<RecipientRow, [messageIds: number[], offlineThresholdSeconds: number]>(
  'push.candidate_recipients',
  `WITH m AS MATERIALIZED (SELECT m.id, m.sender_id, m.stream_id, m.topic, r.user_settings_defaults AS realm_defaults
                            FROM messages m JOIN realms r ON r.id = m.realm_id WHERE m.id = ANY($1::int[])),
        um AS MATERIALIZED (SELECT um.message_id, um.user_id, um.flags FROM m JOIN user_messages um ON um.message_id = m.id AND um.user_id <> m.sender_id),
        sub AS MATERIALIZED (SELECT user_id, stream_id, is_muted, push_notifications, email_notifications, wildcard_mentions_notify
                               FROM subscriptions WHERE stream_id = ANY(ARRAY(SELECT stream_id FROM m)) AND active),
        ut AS MATERIALIZED (SELECT user_id, stream_id, lower(topic_name) AS topic, visibility_policy
                              FROM user_topics WHERE stream_id = ANY(ARRAY(SELECT stream_id FROM m))),
        on_everywhere AS MATERIALIZED (SELECT id FROM users WHERE id = ANY(ARRAY(SELECT DISTINCT user_id FROM um)) AND ${STREAM_NOTIFICATIONS_ON}),
        maybe AS MATERIALIZED (
          SELECT um.message_id, um.user_id, um.flags, sub.is_muted, sub.push_notifications, sub.email_notifications,
                 sub.wildcard_mentions_notify, ut.visibility_policy
            FROM um
            JOIN m ON m.id = um.message_id
            LEFT JOIN sub ON sub.user_id = um.user_id AND sub.stream_id = m.stream_id
            LEFT JOIN ut ON ut.user_id = um.user_id AND ut.stream_id = m.stream_id AND ut.topic = lower(m.topic)
           WHERE m.stream_id IS NULL OR um.flags & 56 <> 0 OR ut.visibility_policy = 3
              OR sub.push_notifications OR sub.email_notifications
              OR ${realmDefault('enable_stream_push_notifications')} OR ${realmDefault('enable_stream_email_notifications')}
              OR um.user_id IN (SELECT id FROM on_everywhere)),
        u AS MATERIALIZED (SELECT id, is_active, is_bot, settings FROM users
                            WHERE id = ANY(ARRAY(SELECT DISTINCT user_id FROM maybe)) AND is_active AND NOT is_bot)
   SELECT um.message_id AS "messageId", um.user_id AS "userId", um.flags, u.is_active AS "isActive", u.is_bot AS "isBot", u.settings,
          m.realm_defaults AS "realmDefaults",
          um.is_muted AS "subMuted", um.push_notifications AS "subPush", um.email_notifications AS "subEmail",
          um.wildcard_mentions_notify AS "subWildcard", um.visibility_policy AS "visibility",
          COALESCE((SELECT p.last_active_time >= now() - make_interval(secs => $2) FROM user_presence p WHERE p.user_id = um.user_id), false)
            AS "presenceActive"
     FROM maybe um
     JOIN m ON m.id = um.message_id
     JOIN u ON u.id = um.user_id
    WHERE NOT EXISTS (SELECT 1 FROM muted_users mu WHERE mu.user_id = um.user_id AND mu.muted_user_id = m.sender_id OFFSET 0)
      AND (m.stream_id IS NULL OR um.flags & 56 <> 0 OR um.visibility_policy = 3
           OR COALESCE(um.push_notifications, ${setting('enable_stream_push_notifications')})
           OR COALESCE(um.email_notifications, ${setting('enable_stream_email_notifications')}))`,
);

/** Which of these messages the user has not read (and still has). */
export const unreadOf = statement<{ messageId: number }, [userId: number, messageIds: number[]]>(
  'push.unread_of',
  `SELECT message_id AS "messageId" FROM user_messages WHERE user_id = $1 AND message_id = ANY($2::int[]) AND flags & 1 = 0`,
);

export interface MailRecipientRow {
  id: number;
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  isActive: boolean;
  settings: unknown;
  realmDefaults: unknown;
  realmName: string;
  subdomain: string;
}

/** A user as a missed-message email needs them. */
export const mailRecipient = statement<MailRecipientRow, [userId: number]>(
  'push.mail_recipient',
  `SELECT u.id, u.realm_id AS "realmId", u.delivery_email AS "deliveryEmail", u.full_name AS "fullName", u.is_active AS "isActive",
          u.settings, r.user_settings_defaults AS "realmDefaults", r.name AS "realmName", r.subdomain
     FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.id = $1`,
);

/** Users' names, for a conversation's participants. */
export const userNames = statement<{ id: number; fullName: string }, [userIds: number[]]>(
  'push.user_names',
  `SELECT id, full_name AS "fullName" FROM users WHERE id = ANY($1::int[])`,
);

/** Messages by id, as an email shows them, oldest first. */
export const messagesByIds = statement<NotifiedMessageRow, [messageIds: number[]]>(
  'push.messages_by_ids',
  `${NOTIFIED_MESSAGES}
    WHERE m.id = ANY($1::int[])
    ORDER BY m.id`,
);

/** Which of these users have not read the message (and still have it), with their flags. */
export const unreadBy = statement<{ userId: number; flags: number }, [messageId: number, userIds: number[]]>(
  'push.unread_by',
  `SELECT user_id AS "userId", flags FROM user_messages WHERE message_id = $1 AND user_id = ANY($2::int[]) AND flags & 1 = 0`,
);

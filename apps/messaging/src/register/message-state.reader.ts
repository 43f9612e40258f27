import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';
import { Flag } from '../messages/message-flags';
import { Visibility } from '../messages/visibility-policy';
import { topicForClient } from '../topics/topic-names';

/** Zulip's MAX_UNREAD_MESSAGES: unread_msgs describes at most this many, the newest. */
export const MAX_UNREAD_MESSAGES = 50000;
/** Zulip's RECENT_CONVERSATIONS_LIMIT: recent_private_conversations looks at this many direct messages. */
export const RECENT_CONVERSATIONS_LIMIT = 1000;

const WILDCARD_MENTIONED = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

interface UnreadRow {
  id: number;
  flags: number;
  stream_id: number | null;
  topic: string;
  member_ids: number[] | null;
  channel_muted: boolean;
}

/**
 * The message-derived parts of POST /register: `max_message_id`, `user_topics`,
 * `recent_private_conversations` and `unread_msgs` (zerver/lib/message.py), a query or two each,
 * read from the caller's UserMessage rows.
 */
@Injectable()
export class MessageStateReader {
  constructor(private readonly prisma: PrismaService) {}

  /** The newest message the caller received, or -1 (Zulip's max_message_id_for_user). */
  async maxMessageId(userId: number): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ id: number | null }[]>`
      SELECT max(message_id) AS id FROM user_messages WHERE user_id = ${userId}`;
    return row?.id ?? -1;
  }

  /** The caller's topic visibility policies, leaving out archived channels (Zulip's get_user_topics). */
  async userTopics(userId: number, allowEmptyTopicName: boolean) {
    const rows = await this.prisma.$queryRaw<{ stream_id: number; topic_name: string; last_updated: Date; visibility_policy: number }[]>`
      SELECT ut.stream_id, ut.topic_name, ut.last_updated, ut.visibility_policy
      FROM user_topics ut JOIN streams s ON s.id = ut.stream_id
      WHERE ut.user_id = ${userId} AND ut.visibility_policy <> ${Visibility.INHERIT} AND NOT s.is_archived
      ORDER BY ut.id`;
    return rows.map((row) => ({
      stream_id: row.stream_id,
      topic_name: topicForClient(row.topic_name, allowEmptyTopicName),
      last_updated: Math.floor(row.last_updated.getTime() / 1000),
      visibility_policy: row.visibility_policy,
    }));
  }

  /**
   * The conversations of the caller's newest direct messages, newest first: the other
   * participants (none for notes to self) and the conversation's newest message id.
   */
  async recentPrivateConversations(userId: number) {
    const rows = await this.prisma.$queryRaw<{ max_message_id: number; member_ids: number[] }[]>`
      WITH recent AS (
        SELECT message_id FROM user_messages
        WHERE user_id = ${userId} AND (flags & ${Flag.is_private}) <> 0
        ORDER BY message_id DESC LIMIT ${RECENT_CONVERSATIONS_LIMIT}
      )
      SELECT max(m.id)::int AS max_message_id, g.member_ids
      FROM recent r JOIN messages m ON m.id = r.message_id JOIN direct_message_groups g ON g.id = m.dm_group_id
      GROUP BY g.id, g.member_ids
      ORDER BY max_message_id DESC`;
    return rows.map((row) => ({
      max_message_id: row.max_message_id,
      user_ids: row.member_ids.filter((id) => id !== userId).sort((a, b) => a - b),
    }));
  }

  /**
   * Zulip's unread_msgs (get_raw_unread_data, aggregate_unread_data): the newest unread
   * messages by channel topic, one-on-one conversation (including notes to self) and group
   * conversation, with mentions. `count` leaves out channel messages muted for the caller
   * (a muted channel unless the topic is unmuted or followed, or a muted topic), and so does
   * a wildcard mention.
   */
  async unreadMsgs(userId: number, allowEmptyTopicName: boolean) {
    const [rows, policies] = await Promise.all([
      this.prisma.$queryRaw<UnreadRow[]>`
        WITH unread AS (
          SELECT message_id, flags FROM user_messages
          WHERE user_id = ${userId} AND (flags & ${Flag.read}) = 0
          ORDER BY message_id DESC LIMIT ${MAX_UNREAD_MESSAGES}
        )
        SELECT u.message_id AS id, u.flags, m.stream_id, m.topic, g.member_ids, coalesce(s.is_muted, false) AS channel_muted
        FROM unread u JOIN messages m ON m.id = u.message_id
        LEFT JOIN direct_message_groups g ON g.id = m.dm_group_id
        LEFT JOIN subscriptions s ON s.user_id = ${userId} AND s.stream_id = m.stream_id
        ORDER BY u.message_id`,
      this.prisma.userTopic.findMany({ where: { userId }, select: { streamId: true, topicName: true, visibilityPolicy: true } }),
    ]);
    // One key per channel topic, whatever its case.
    const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;
    const policyOf = new Map(policies.map((p) => [topicKey(p.streamId, p.topicName), p.visibilityPolicy]));

    const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
    const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
    const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
    const mentions: number[] = [];
    let count = 0;
    for (const row of rows) {
      let muted = false;
      if (row.stream_id !== null) {
        const topic = topicForClient(row.topic, allowEmptyTopicName);
        const key = topicKey(row.stream_id, topic);
        const entry = streams.get(key) ?? { stream_id: row.stream_id, topic, unread_message_ids: [] };
        entry.unread_message_ids.push(row.id);
        streams.set(key, entry);
        const policy = policyOf.get(topicKey(row.stream_id, row.topic)) ?? Visibility.INHERIT;
        muted = row.channel_muted ? policy !== Visibility.UNMUTED && policy !== Visibility.FOLLOWED : policy === Visibility.MUTED;
      } else {
        const members = [...(row.member_ids ?? [])].sort((a, b) => a - b);
        if (members.length <= 2) {
          const other = members.find((id) => id !== userId) ?? userId;
          const entry = pms.get(other) ?? { other_user_id: other, sender_id: other, unread_message_ids: [] };
          entry.unread_message_ids.push(row.id);
          pms.set(other, entry);
        } else {
          const key = members.join(',');
          const entry = huddles.get(key) ?? { user_ids_string: key, unread_message_ids: [] };
          entry.unread_message_ids.push(row.id);
          huddles.set(key, entry);
        }
      }
      if (!muted) count++;
      if (row.flags & Flag.mentioned || (row.flags & WILDCARD_MENTIONED && !muted)) mentions.push(row.id);
    }
    return {
      count,
      pms: [...pms.values()].sort((a, b) => a.other_user_id - b.other_user_id),
      streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || compare(a.topic.toLowerCase(), b.topic.toLowerCase())),
      huddles: [...huddles.values()].sort((a, b) => compare(a.user_ids_string, b.user_ids_string)),
      mentions,
      old_unreads_missing: rows.length === MAX_UNREAD_MESSAGES,
    };
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

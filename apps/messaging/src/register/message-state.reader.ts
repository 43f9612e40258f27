import { Injectable } from '@nestjs/common';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { TopicsRepository, type TopicPolicyRow } from '../data/topics.repository';
import { Flag } from '../messages/message-flags';
import { Visibility } from '../messages/visibility-policy';
import { topicForClient } from '../topics/topic-names';

/** Zulip's MAX_UNREAD_MESSAGES: unread_msgs describes at most this many, the newest. */
export const MAX_UNREAD_MESSAGES = 50000;
/** Zulip's RECENT_CONVERSATIONS_LIMIT: recent_private_conversations looks at this many direct messages. */
export const RECENT_CONVERSATIONS_LIMIT = 1000;

const WILDCARD_MENTIONED = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

/**
 * The message-derived parts of POST /register: `max_message_id`, `user_topics`,
 * `recent_private_conversations` and `unread_msgs` (zerver/lib/message.py), a query or two each,
 * read from the caller's UserMessage rows. The caller's topic visibility policies are read once
 * (`topicPolicies`) for the three parts that need them.
 */
@Injectable()
export class MessageStateReader {
  constructor(
    private readonly flags: MessageFlagsRepository,
    private readonly topics: TopicsRepository,
  ) {}

  /** The newest message the caller received, or -1 (Zulip's max_message_id_for_user). */
  async maxMessageId(userId: number): Promise<number> {
    return (await this.flags.maxReceivedId(userId)) ?? -1;
  }

  /** Every topic visibility policy of the caller, with its channel: what userTopics, mutedTopics and unreadMsgs take. */
  topicPolicies(userId: number): Promise<TopicPolicyRow[]> {
    return this.topics.policiesOf(userId);
  }

  /** The caller's topic visibility policies, leaving out archived channels (Zulip's get_user_topics). */
  userTopics(policies: TopicPolicyRow[], allowEmptyTopicName: boolean) {
    const rows = policies.filter((row) => row.policy !== Visibility.INHERIT && !row.channelArchived);
    return rows.map((row) => ({
      stream_id: row.streamId,
      topic_name: topicForClient(row.topicName, allowEmptyTopicName),
      last_updated: Math.floor(row.lastUpdated.getTime() / 1000),
      visibility_policy: row.policy,
    }));
  }

  /** The deprecated `muted_topics`: [channel name, topic, Unix seconds] of each muted topic. */
  mutedTopics(policies: TopicPolicyRow[], allowEmptyTopicName: boolean): [string, string, number][] {
    const rows = policies.filter((row) => row.policy === Visibility.MUTED && !row.channelArchived);
    return rows.map((row) => [row.streamName, topicForClient(row.topicName, allowEmptyTopicName), Math.floor(row.lastUpdated.getTime() / 1000)]);
  }

  /** The ids of the messages the caller starred (Zulip's get_starred_message_ids). */
  async starredMessages(userId: number): Promise<number[]> {
    return this.flags.starredIds(userId, Flag.starred);
  }

  /**
   * The conversations of the caller's newest direct messages, newest first: the other
   * participants (none for notes to self) and the conversation's newest message id.
   */
  async recentPrivateConversations(userId: number) {
    const rows = await this.flags.recentDirectConversations(userId, Flag.is_private, RECENT_CONVERSATIONS_LIMIT);
    return rows.map((row) => ({
      max_message_id: row.maxMessageId,
      user_ids: row.memberIds.filter((id) => id !== userId).sort((a, b) => a - b),
    }));
  }

  /**
   * Zulip's unread_msgs (get_raw_unread_data, aggregate_unread_data): the newest unread
   * messages by channel topic, one-on-one conversation (including notes to self) and group
   * conversation, with mentions. `count` leaves out channel messages muted for the caller
   * (a muted channel unless the topic is unmuted or followed, or a muted topic), and so does
   * a wildcard mention.
   */
  async unreadMsgs(userId: number, allowEmptyTopicName: boolean, topicPolicies: Promise<TopicPolicyRow[]>) {
    const [rows, policies] = await Promise.all([this.flags.unread(userId, Flag.read, MAX_UNREAD_MESSAGES), topicPolicies]);
    // One key per channel topic, whatever its case.
    const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;
    const policyOf = new Map(policies.map((p) => [topicKey(p.streamId, p.topicName), p.policy]));

    const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
    const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
    const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
    const mentions: number[] = [];
    let count = 0;
    for (const row of rows) {
      let muted = false;
      if (row.streamId !== null) {
        const topic = topicForClient(row.topic, allowEmptyTopicName);
        const key = topicKey(row.streamId, topic);
        const entry = streams.get(key) ?? { stream_id: row.streamId, topic, unread_message_ids: [] };
        entry.unread_message_ids.push(row.id);
        streams.set(key, entry);
        const policy = policyOf.get(topicKey(row.streamId, row.topic)) ?? Visibility.INHERIT;
        muted = row.channelMuted ? policy !== Visibility.UNMUTED && policy !== Visibility.FOLLOWED : policy === Visibility.MUTED;
      } else {
        const members = [...(row.memberIds ?? [])].sort((a, b) => a - b);
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

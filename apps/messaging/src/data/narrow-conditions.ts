import { Prisma } from '@teamchat/db';

/**
 * The SQL conditions a narrow is made of (messaging/messages/narrow-query.ts decides which), on
 * `messages m` and the viewer's `user_messages um` (absent: null flags), composed with
 * `Prisma.sql` (text and values only; run by MessagesRepository.narrowed through pg). Opaque to
 * their callers, who only combine them.
 */
export type NarrowCondition = Prisma.Sql;

/** The condition, or its negation when `negated`. */
export const negatedIf = (negated: boolean, condition: NarrowCondition): NarrowCondition =>
  negated ? Prisma.sql`NOT (${condition})` : condition;

/** Messages not in the channel (direct messages included). */
export const notInChannel = (streamId: number): NarrowCondition => Prisma.sql`m.stream_id IS DISTINCT FROM ${streamId}`;

/** Messages of the channel from `firstVisible` on. */
export const inChannelFrom = (streamId: number, firstVisible: number): NarrowCondition =>
  Prisma.sql`m.stream_id = ${streamId} AND m.id >= ${firstVisible}`;

/** Channel messages of a topic, whatever its case. */
export const inTopicNamed = (topic: string): NarrowCondition => Prisma.sql`m.stream_id IS NOT NULL AND lower(m.topic) = lower(${topic})`;

/** Messages of one direct-message group. */
export const inDmGroup = (groupId: number): NarrowCondition => Prisma.sql`m.dm_group_id = ${groupId}`;

/** Every direct message. */
export const anyDirectMessage = (): NarrowCondition => Prisma.sql`m.dm_group_id IS NOT NULL`;

/** Direct messages of the groups the person is in. */
export const dmIncluding = (realmId: number, personId: number): NarrowCondition =>
  Prisma.sql`m.dm_group_id IN (SELECT g.id FROM direct_message_groups g WHERE g.realm_id = ${realmId} AND ${personId} = ANY(g.member_ids))`;

/** `has:` operands: what the message holds. */
export const HAS_CONDITIONS: Record<string, NarrowCondition> = {
  link: Prisma.sql`m.has_link`,
  image: Prisma.sql`m.has_image`,
  attachment: Prisma.sql`m.has_attachment`,
  reaction: Prisma.sql`EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)`,
};

export const sentBy = (senderId: number): NarrowCondition => Prisma.sql`m.sender_id = ${senderId}`;

export const messageIdIs = (id: number): NarrowCondition => Prisma.sql`m.id = ${id}`;
export const messageIdAtMost = (id: number): NarrowCondition => Prisma.sql`m.id <= ${id}`;
export const messageIdAbove = (id: number): NarrowCondition => Prisma.sql`m.id > ${id}`;
export const messageIdIn = (ids: number[]): NarrowCondition => Prisma.sql`m.id IN (${Prisma.join(ids)})`;

/** The viewer has the message and has not read it (`readFlag`: the read bit). */
export const unreadBy = (readFlag: number): NarrowCondition => Prisma.sql`um.flags IS NOT NULL AND (um.flags & ${readFlag}) = 0`;

/** The viewer's flags hold one of the bits of `mask` (no row: none). */
export const flagged = (mask: number): NarrowCondition => Prisma.sql`(coalesce(um.flags, 0) & ${mask}) <> 0`;

/** Channel messages whose topic starts with the prefix (resolved topics). */
export const topicStartsWith = (prefix: string): NarrowCondition => Prisma.sql`m.stream_id IS NOT NULL AND starts_with(m.topic, ${prefix})`;

/** The viewer's policy for the message's topic is one of these. */
const topicPolicy = (viewerId: number, policies: number[]): NarrowCondition =>
  Prisma.sql`EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ${viewerId} AND ut.stream_id = m.stream_id
        AND lower(ut.topic_name) = lower(m.topic) AND ut.visibility_policy IN (${Prisma.join(policies)}))`;

/** Channel messages whose topic the viewer gave one of these policies. */
export const topicPolicyIn = (viewerId: number, policies: number[]): NarrowCondition =>
  Prisma.sql`m.stream_id IS NOT NULL AND ${topicPolicy(viewerId, policies)}`;

/** A topic the viewer muted, or a topic of a channel they muted whose topic policy is not one of `overriding`. */
export const mutedFor = (viewerId: number, muted: number[], overriding: number[]): NarrowCondition =>
  Prisma.sql`m.stream_id IS NOT NULL AND (${topicPolicy(viewerId, muted)}
          OR (EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = ${viewerId} AND s.stream_id = m.stream_id AND s.is_muted)
              AND NOT ${topicPolicy(viewerId, overriding)}))`;

/** A search: its words, stemmed, in the topic or the text, and each quoted phrase's pattern as written. */
export const searchMatches = (text: string, phrasePatterns: string[]): NarrowCondition =>
  Prisma.join(
    [
      Prisma.sql`m.search_tsvector @@ plainto_tsquery('english', ${text})`,
      ...phrasePatterns.map((pattern) => Prisma.sql`(m.content ILIKE ${pattern} OR m.topic ILIKE ${pattern})`),
    ],
    ' AND ',
  );

/** The columns a narrow's rows carry: the message's and the viewer's flags (null: no row). */
export const NARROW_COLUMNS = Prisma.sql`m.id, m.realm_id AS "realmId", m.sender_id AS "senderId", m.stream_id AS "streamId",
  m.dm_group_id AS "dmGroupId", m.topic, m.content, m.rendered_content AS "renderedContent",
  m.sending_client AS "sendingClient", m.date_sent AS "dateSent", m.has_link AS "hasLink", m.has_image AS "hasImage",
  m.has_attachment AS "hasAttachment", m.last_edit_time AS "lastEditTime", m.last_move_time AS "lastMoveTime", um.flags`;

import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, type MessageModel, type OutboxDraft } from '@teamchat/db';
import {
  deleteOneMessage,
  insertKeyedMessage,
  insertMessage,
  messageConversation,
  messageForUser,
  messageIdByScheduledMessage,
  messageSendTimes,
  readableMessageIds,
  searchHighlights,
  topicMessageIdsFrom,
  topicSenderIds,
  type ActionableMessageRow,
  type InsertedMessageRow,
} from './messages.sql';
import { NARROW_COLUMNS, type NarrowCondition } from './narrow-conditions';
import { inTopic, visibleTo } from './topic-scope';
import type { ColdTx, Tx } from './transactions';

export type { ActionableMessageRow, InsertedMessageRow } from './messages.sql';

/** A new message's columns, with its recipients' rows (their ids and flags, in the same order). */
export interface NewMessage {
  realmId: number;
  senderId: number;
  streamId: number | null;
  dmGroupId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  sendingClient: string;
  recipientIds: number[];
  recipientFlags: number[];
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  dateSent: Date;
  /** The events announcing it, written with it as outbox rows (their JSON cut where its id goes). */
  events: OutboxDraft[];
}

/** A message of a narrow, with the viewer's flags (null: the viewer has no row for it). */
export type NarrowRow = MessageModel & { flags: number | null };

/** Where a narrow's messages come from: the viewer's own rows, or a whole channel (history open to the viewer). */
export interface NarrowSource {
  viewerId: number;
  realmId: number;
  channelWide?: { streamId: number };
  /** A search's text: its messages may come from the replica (DATABASE_REPLICA_URL), a moment behind. */
  search?: string;
}

/** Which topic a deletion batch deletes from, and what its requester may see of it. */
export interface TopicDeletionTarget {
  realmId: number;
  streamId: number;
  topic: string;
  requestedBy: number;
  /** See visibleTo. */
  visibleFrom: number | null;
}

/** What one batch of a topic deletion deleted. */
export interface DeletedTopicBatch {
  /** Messages the batch found still to delete; 0 means the topic is done. */
  found: number;
  /** The deleted messages, ascending. */
  messageIds: number[];
  /** The stored topic of the newest deleted message (null when nothing was deleted). */
  topic: string | null;
  /** Users who had a UserMessage row for a deleted message. */
  receivers: number[];
  /** The channel as it was while locked (null when nothing was deleted, or it is gone). */
  channel: { name: string; inviteOnly: boolean; historyPublicToSubscribers: boolean; subscribers: number[] } | null;
  /** The channel's new first_message_id, present when it changed. */
  firstMessageId?: number | null;
}

/** `messages`, which messaging owns: sending (one statement per send), reading one for an action, editing, deleting. */
@Injectable()
export class MessagesRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /**
   * A channel's topics (whatever their case) with their newest message the user may see
   * (`visibleFrom`: see visibleTo), newest first.
   */
  latestTopics(realmId: number, streamId: number, userId: number, visibleFrom: number | null): Promise<{ id: number; topic: string }[]> {
    return this.prisma.$queryRaw<{ id: number; topic: string }[]>`
      SELECT m.id, m.topic FROM messages m
      WHERE m.id IN (
        SELECT max(v.id) FROM messages v
        WHERE v.realm_id = ${realmId} AND v.stream_id = ${streamId} AND ${visibleTo('v', userId, visibleFrom)}
        GROUP BY lower(v.topic)
      )
      ORDER BY m.id DESC`;
  }

  /** Whether the topic still has a message the user may see (`visibleFrom`: see visibleTo). */
  async anyVisibleInTopic(realmId: number, streamId: number, topic: string, userId: number, visibleFrom: number | null): Promise<boolean> {
    const left = await this.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM messages m
      WHERE m.realm_id = ${realmId} AND ${inTopic('m', streamId, topic)}
        AND ${visibleTo('m', userId, visibleFrom)}
      LIMIT 1`;
    return left.length > 0;
  }

  /**
   * Writes the message, its recipients' rows, its events' outbox rows (and the channel's first
   * message) in one statement, answering the topic's state before it. With a scheduled message's id, a key
   * already used inserts nothing: then null.
   */
  async insert(message: NewMessage, scheduledMessageId: number | null, tx: Tx = this.pg): Promise<InsertedMessageRow | null> {
    const m = message;
    const values = [
      m.realmId,
      m.senderId,
      m.streamId,
      m.dmGroupId,
      m.topic,
      m.content,
      m.renderedContent,
      m.sendingClient,
      m.recipientIds,
      m.recipientFlags,
      m.hasLink,
      m.hasImage,
      m.hasAttachment,
      m.dateSent,
      m.events.map((e) => e.subject),
      m.events.map((e) => e.head),
      m.events.map((e) => e.tail),
    ] as const;
    // The keyed statement only when there is a key: an ordinary send's statement is unchanged.
    const [saved] = scheduledMessageId === null ? await tx.run(insertMessage, ...values) : await tx.run(insertKeyedMessage, ...values, scheduledMessageId);
    return saved ?? null;
  }

  /** The message a scheduled message became, if any. */
  async idByScheduledMessage(scheduledMessageId: number): Promise<number | null> {
    return (await this.pg.run(messageIdByScheduledMessage, scheduledMessageId))[0]?.id ?? null;
  }

  /** Everyone who has sent a message to a channel topic (whatever its case). */
  async topicSenderIds(streamId: number, topic: string, tx: Tx = this.pg): Promise<number[]> {
    return (await tx.run(topicSenderIds, streamId, topic)).map((row) => row.senderId);
  }

  /** One message of the organization with the caller's row and whether they may read it. */
  async forUser(realmId: number, messageId: number, userId: number, guestRole: number): Promise<ActionableMessageRow | null> {
    return (await this.pg.run(messageForUser, realmId, messageId, userId, guestRole))[0] ?? null;
  }

  /** The ids of a topic's messages from `fromId` on, ascending; with protected history only those the user received. */
  async topicMessageIdsFrom(streamId: number, topic: string, fromId: number, historyPublic: boolean, userId: number): Promise<number[]> {
    return (await this.pg.run(topicMessageIdsFrom, streamId, topic, fromId, historyPublic, userId)).map((row) => row.id);
  }

  /** When each of the messages was sent, in id order. */
  sendTimes(messageIds: number[]): Promise<{ id: number; dateSent: Date }[]> {
    return this.pg.run(messageSendTimes, messageIds);
  }

  /** Deletes one message (its rows and reactions go with it); the channel's new first message when it moved, null when the message was gone. */
  async deleteOne(messageId: number, tx: Tx = this.pg): Promise<{ firstMessageId: number | null; moved: boolean } | null> {
    return (await tx.run(deleteOneMessage, messageId))[0] ?? null;
  }

  /** Where a message was sent (the `with` operator's conversation). */
  async conversation(realmId: number, messageId: number): Promise<{ streamId: number | null; topic: string; dmGroupId: number | null } | null> {
    return (await this.pg.run(messageConversation, realmId, messageId))[0] ?? null;
  }

  /** A search's highlighting of these messages. */
  searchHighlights(messageIds: number[], search: string): Promise<{ id: number; matchContent: string; matchSubject: string }[]> {
    return this.pg.replica.run(searchHighlights, messageIds, search);
  }

  /** Which of these messages the user may read (Zulip's has_message_access). */
  async readableIds(realmId: number, userId: number, messageIds: number[], guestRole: number): Promise<number[]> {
    return (await this.pg.run(readableMessageIds, realmId, userId, messageIds, guestRole)).map((row) => row.id);
  }

  /** The organization's newest message id (null: none yet), as `tx` sees it. */
  async newestIdInRealm(realmId: number, tx: ColdTx = this.prisma): Promise<number | null> {
    return (await tx.message.aggregate({ where: { realmId }, _max: { id: true } }))._max.id;
  }

  /**
   * One batch of a topic deletion, in the caller's transaction: the newest messages of the topic still
   * there that the requester may see (rows another run is deleting are waited for, then
   * skipped), deleted with their UserMessage rows in one statement; the channel's row is held
   * to the commit (so two topics of one channel deleted at once cannot leave first_message_id
   * pointing at a deleted message), and its first_message_id moved on if its oldest message went.
   */
  async deleteTopicBatch(target: TopicDeletionTarget, batchSize: number, tx: ColdTx): Promise<DeletedTopicBatch> {
    const [deleted] = await tx.$queryRaw<{ found: number; ids: number[] | null; topic: string | null; receivers: number[] | null }[]>`
      WITH doomed AS (
        SELECT m.id FROM messages m
        WHERE m.realm_id = ${target.realmId} AND ${inTopic('m', target.streamId, target.topic)}
          AND ${visibleTo('m', target.requestedBy, target.visibleFrom)}
        ORDER BY m.id DESC
        LIMIT ${batchSize}
        FOR UPDATE OF m
      ), receivers AS (
        DELETE FROM user_messages um USING doomed WHERE um.message_id = doomed.id RETURNING um.user_id
      ), gone AS (
        DELETE FROM messages m USING doomed WHERE m.id = doomed.id RETURNING m.id, m.topic
      )
      SELECT (SELECT count(*) FROM doomed)::int AS found,
        (SELECT array_agg(id ORDER BY id) FROM gone) AS ids,
        (SELECT topic FROM gone ORDER BY id DESC LIMIT 1) AS topic,
        (SELECT array_agg(DISTINCT user_id) FROM receivers) AS receivers`;
    const batch: DeletedTopicBatch = {
      found: deleted.found,
      messageIds: deleted.ids ?? [],
      topic: deleted.topic,
      receivers: deleted.receivers ?? [],
      channel: null,
    };
    if (batch.messageIds.length === 0) return batch;

    const [channel] = await tx.$queryRaw<
      { name: string; invite_only: boolean; history_public_to_subscribers: boolean; first_message_id: number | null; subscribers: number[] }[]
    >`
      SELECT s.name, s.invite_only, s.history_public_to_subscribers, s.first_message_id,
        ARRAY(SELECT user_id FROM subscriptions WHERE stream_id = s.id AND active) AS subscribers
      FROM streams s WHERE s.id = ${target.streamId}
      FOR UPDATE OF s`;
    if (!channel) return batch;
    batch.channel = {
      name: channel.name,
      inviteOnly: channel.invite_only,
      historyPublicToSubscribers: channel.history_public_to_subscribers,
      subscribers: channel.subscribers,
    };
    if (channel.first_message_id !== null && batch.messageIds.includes(channel.first_message_id)) {
      const [{ first }] = await tx.$queryRaw<{ first: number | null }[]>`
        SELECT min(id) AS first FROM messages WHERE realm_id = ${target.realmId} AND stream_id = ${target.streamId}`;
      await tx.$executeRaw`UPDATE streams SET first_message_id = ${first} WHERE id = ${target.streamId}`;
      batch.firstMessageId = first;
    }
    return batch;
  }

  /** The messages of the source matching all the conditions, in id order, at most `limit` (a narrow's shape varies: sent unnamed). */
  narrowed(source: NarrowSource, conditions: NarrowCondition[], order: 'ASC' | 'DESC', limit: number): Promise<NarrowRow[]> {
    const where = Prisma.join([...conditions, Prisma.sql`m.realm_id = ${source.realmId}`], ' AND ');
    const orderBy = order === 'ASC' ? Prisma.sql`ORDER BY m.id ASC` : Prisma.sql`ORDER BY m.id DESC`;
    const db = source.search !== undefined ? this.pg.replica : this.pg;
    if (source.channelWide) {
      return db.query<NarrowRow>(Prisma.sql`
        SELECT ${NARROW_COLUMNS} FROM messages m
        LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ${source.viewerId}
        WHERE m.stream_id = ${source.channelWide.streamId} AND ${where} ${orderBy} LIMIT ${limit}`);
    }
    return db.query<NarrowRow>(Prisma.sql`
      SELECT ${NARROW_COLUMNS} FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ${source.viewerId} AND ${where} ${orderBy} LIMIT ${limit}`);
  }
}

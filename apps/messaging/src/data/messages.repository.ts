import { Injectable } from '@nestjs/common';
import { PgService, PrismaService } from '@teamchat/db';
import {
  deleteOneMessage,
  insertKeyedMessage,
  insertMessage,
  messageConversation,
  messageForUser,
  messageIdByScheduledMessage,
  readableMessageIds,
  searchHighlights,
  topicMessageIdsFrom,
  topicSenderIds,
  type ActionableMessageRow,
  type InsertedMessageRow,
} from './messages.sql';
import { inTopic, visibleTo } from './topic-scope';
import type { Tx } from './transactions';

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
   * Writes the message and its recipients' rows (and the channel's first message) in one
   * statement, answering the topic's state before it. With a scheduled message's id, a key
   * already used inserts nothing: then null.
   */
  async insert(message: NewMessage, scheduledMessageId: number | null): Promise<InsertedMessageRow | null> {
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
    ] as const;
    // The keyed statement only when there is a key: an ordinary send's statement is unchanged.
    const [saved] = scheduledMessageId === null ? await this.pg.run(insertMessage, ...values) : await this.pg.run(insertKeyedMessage, ...values, scheduledMessageId);
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

  /** Deletes one message (its rows and reactions go with it); the channel's new first message when it moved, null when the message was gone. */
  async deleteOne(messageId: number): Promise<{ firstMessageId: number | null; moved: boolean } | null> {
    return (await this.pg.run(deleteOneMessage, messageId))[0] ?? null;
  }

  /** Where a message was sent (the `with` operator's conversation). */
  async conversation(realmId: number, messageId: number): Promise<{ streamId: number | null; topic: string; dmGroupId: number | null } | null> {
    return (await this.pg.run(messageConversation, realmId, messageId))[0] ?? null;
  }

  /** A search's highlighting of these messages. */
  searchHighlights(messageIds: number[], search: string): Promise<{ id: number; matchContent: string; matchSubject: string }[]> {
    return this.pg.run(searchHighlights, messageIds, search);
  }

  /** Which of these messages the user may read (Zulip's has_message_access). */
  async readableIds(realmId: number, userId: number, messageIds: number[], guestRole: number): Promise<number[]> {
    return (await this.pg.run(readableMessageIds, realmId, userId, messageIds, guestRole)).map((row) => row.id);
  }
}

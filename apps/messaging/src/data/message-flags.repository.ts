import { Injectable } from '@nestjs/common';
import { PgService, PrismaService } from '@teamchat/db';
import {
  clearMessageFlag,
  flaggableMessages,
  insertHistoricalRow,
  messageHolders,
  markAllRead,
  markChannelRead,
  markSenderRead,
  readReceipts,
  maxReceivedMessageId,
  messagesAudience,
  moveRecipients,
  recentDirectConversations,
  setMentionFlags,
  setMessageFlag,
  starredMessageIds,
  unreadMessages,
  type FlaggableRow,
  type UnreadRow,
} from './message-flags.sql';
import { inTopic } from './topic-scope';
import type { ColdTx, Tx } from './transactions';

export type { FlaggableRow, UnreadRow } from './message-flags.sql';

/** `user_messages`, which messaging owns: each recipient's row of a message, with its flag bits. */
@Injectable()
export class MessageFlagsRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /** Whether the user received a message of the topic. */
  async receivedInTopic(userId: number, streamId: number, topic: string): Promise<boolean> {
    const received = await this.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ${userId} AND ${inTopic('m', streamId, topic)}
      LIMIT 1`;
    return received.length > 0;
  }

  /** Marks the user's unread messages of a topic read; the ids of those. */
  async markTopicRead(userId: number, streamId: number, topic: string, tx: ColdTx = this.prisma): Promise<number[]> {
    const updated = await tx.$queryRaw<{ message_id: number }[]>`
      UPDATE user_messages um SET flags = um.flags | 1 -- the read bit
      FROM messages m
      WHERE m.id = um.message_id AND um.user_id = ${userId} AND ${inTopic('m', streamId, topic)}
        AND (um.flags & 1) = 0
      RETURNING um.message_id`;
    return updated.map((row) => row.message_id);
  }

  /** A row for a message the user reads through its channel's history (Zulip's historical UserMessage). */
  async insertHistorical(userId: number, messageId: number, flags: number, tx: Tx = this.pg): Promise<void> {
    await tx.run(insertHistoricalRow, userId, messageId, flags);
  }

  /** Who is told of an action on these messages, with their flags on `messageId` (null without a row). */
  audience(messageIds: number[], messageId: number, streamId: number | null, tx: Tx = this.pg): Promise<{ userId: number; flags: number | null }[]> {
    return tx.run(messagesAudience, messageIds, messageId, streamId);
  }

  /** Who received the message (has a row for it), in id order. */
  async holders(messageId: number): Promise<number[]> {
    return (await this.pg.run(messageHolders, messageId)).map((row) => row.userId);
  }

  /** After a content edit: each recipient's mention bits (`clearBits` cleared first) as the new content says. */
  async setMentionFlags(messageId: number, mentionedIds: number[], topicWildcardIds: number[], everyoneBits: number, clearBits: number, tx: Tx): Promise<void> {
    await tx.run(setMentionFlags, messageId, mentionedIds, topicWildcardIds, everyoneBits, clearBits);
  }

  /** A move to another channel: rows of those who may not read it go (answered), its subscribers without rows get them. */
  async moveRecipients(messageIds: number[], newStreamId: number, guestRole: number, tx: Tx): Promise<number[]> {
    return (await tx.run(moveRecipients, messageIds, newStreamId, guestRole)).map((row) => row.userId);
  }

  /** The newest message a user received, null when none. */
  async maxReceivedId(userId: number): Promise<number | null> {
    return (await this.pg.run(maxReceivedMessageId, userId))[0]?.id ?? null;
  }

  /** The direct conversations among a user's newest direct messages, newest first. */
  recentDirectConversations(userId: number, isPrivateFlag: number, limit: number): Promise<{ maxMessageId: number; memberIds: number[] }[]> {
    return this.pg.run(recentDirectConversations, userId, isPrivateFlag, limit);
  }

  /** A user's newest unread messages (at most `limit`), oldest first. */
  unread(userId: number, readFlag: number, limit: number): Promise<UnreadRow[]> {
    return this.pg.run(unreadMessages, userId, readFlag, limit);
  }

  /** The ids of the messages a user starred, ascending. */
  async starredIds(userId: number, starredFlag: number): Promise<number[]> {
    return (await this.pg.run(starredMessageIds, userId, starredFlag)).map((row) => row.id);
  }

  /** The user's rows of these messages, with what a flag change reports about each. */
  flaggable(userId: number, messageIds: number[]): Promise<FlaggableRow[]> {
    return this.pg.run(flaggableMessages, userId, messageIds);
  }

  /** Sets (`add`) or clears one flag bit on the user's rows of these messages; the ids of those that changed. */
  async changeFlag(op: 'add' | 'remove', userId: number, messageIds: number[], bit: number, tx: Tx = this.pg): Promise<number[]> {
    return (await tx.run(op === 'add' ? setMessageFlag : clearMessageFlag, userId, messageIds, bit)).map((row) => row.messageId);
  }

  /** Marks every unread message of the user read; the ids of those. */
  async markAllRead(userId: number, tx: Tx = this.pg): Promise<number[]> {
    return (await tx.run(markAllRead, userId)).map((row) => row.messageId);
  }

  /** Marks the user's unread messages of one channel read; the ids of those. */
  async markChannelRead(userId: number, streamId: number, tx: Tx = this.pg): Promise<number[]> {
    return (await tx.run(markChannelRead, userId, streamId)).map((row) => row.messageId);
  }

  /** Marks the user's unread messages from `senderId` read (after muting them); the ids of those. */
  async markSenderRead(userId: number, senderId: number, tx: Tx = this.pg): Promise<number[]> {
    return (await tx.run(markSenderRead, userId, senderId)).map((row) => row.messageId);
  }

  /** Who has read the message and shares it with `viewerId` (see readReceipts), ascending. */
  async readReceipts(messageId: number, viewerId: number): Promise<number[]> {
    return (await this.pg.run(readReceipts, messageId, viewerId)).map((row) => row.userId);
  }
}

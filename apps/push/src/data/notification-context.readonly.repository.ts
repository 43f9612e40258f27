import { Injectable } from '@nestjs/common';
import { Presence } from '@teamchat/contracts';
import { PgService } from '@teamchat/db';
import {
  candidateRecipients,
  mailRecipient,
  messagesByIds,
  notifiedMessage,
  unreadBy,
  unreadOf,
  userNames,
  type MailRecipientRow,
  type NotifiedMessageRow,
  type RecipientRow,
} from './notification-context.readonly.sql';

export type { MailRecipientRow, NotifiedMessageRow, RecipientRow };

/**
 * READ-ONLY view of messaging's and users-groups' tables for notifications: the message, its
 * recipients with their settings, subscriptions and topic policies, and what is still unread.
 */
@Injectable()
export class NotificationContextReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  async message(messageId: number): Promise<NotifiedMessageRow | null> {
    return (await this.pg.run(notifiedMessage, messageId))[0] ?? null;
  }

  /** The recipients of these messages who might be notified (see candidateRecipients). */
  candidates(messageIds: number[]): Promise<RecipientRow[]> {
    return messageIds.length === 0 ? Promise.resolve([]) : this.pg.run(candidateRecipients, messageIds, Presence.PRESENCE.offlineThresholdSeconds);
  }

  async unread(userId: number, messageIds: number[]): Promise<Set<number>> {
    if (messageIds.length === 0) return new Set();
    return new Set((await this.pg.run(unreadOf, userId, messageIds)).map((row) => row.messageId));
  }

  /** Those of the users who have not read the message, with their flags. */
  async unreadBy(messageId: number, userIds: number[]): Promise<{ userId: number; flags: number }[]> {
    if (userIds.length === 0) return [];
    return this.pg.run(unreadBy, messageId, userIds);
  }

  async mailRecipient(userId: number): Promise<MailRecipientRow | null> {
    return (await this.pg.run(mailRecipient, userId))[0] ?? null;
  }

  async names(userIds: number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    return new Map((await this.pg.run(userNames, userIds)).map((row) => [row.id, row.fullName]));
  }

  messages(messageIds: number[]): Promise<NotifiedMessageRow[]> {
    return messageIds.length === 0 ? Promise.resolve([]) : this.pg.run(messagesByIds, messageIds);
  }
}

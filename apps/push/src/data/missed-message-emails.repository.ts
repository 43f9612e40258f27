import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PgService, PrismaService } from '@teamchat/db';
import { addToBatches, takeDueBatch, unsubscribeKeyOf } from './missed-message-emails.sql';

export interface PendingEmailEntry {
  messageId: number;
  trigger: string;
}

/**
 * The `missed_message_emails` table (messages waiting for their recipient's batch) and
 * `missed_message_unsubscribe_keys` (the keys of the unsubscribe links).
 */
@Injectable()
export class MissedMessageEmailsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /**
   * Adds messages to recipients' batches (see addToBatches); answers each recipient's due time.
   */
  async add(entries: { realmId: number; messageId: number; userId: number; trigger: string; dueAt: Date }[]): Promise<{ userId: number; dueAt: Date }[]> {
    if (entries.length === 0) return [];
    return this.pg.run(
      addToBatches,
      entries.map((e) => e.userId),
      entries.map((e) => e.messageId),
      entries.map((e) => e.realmId),
      entries.map((e) => e.trigger),
      entries.map((e) => e.dueAt),
    );
  }

  /** Takes out the user's whole batch when it is due (else nothing): the messages to mail, oldest first. */
  async takeDue(userId: number, now: Date): Promise<PendingEmailEntry[]> {
    return (await this.pg.run(takeDueBatch, userId, now)).sort((a, b) => a.messageId - b.messageId);
  }

  /** The user's batches still waiting (the recovery sweep). */
  async dueTimes(): Promise<{ userId: number; dueAt: Date }[]> {
    const rows = await this.prisma.missedMessageEmail.groupBy({ by: ['userId'], _min: { dueAt: true } });
    return rows.map((row) => ({ userId: row.userId, dueAt: row._min.dueAt! }));
  }

  /** The user's unsubscribe key, made on first use. */
  async unsubscribeKey(realmId: number, userId: number): Promise<string> {
    return (await this.pg.run(unsubscribeKeyOf, userId, realmId, randomBytes(20).toString('hex')))[0].key;
  }

  async byUnsubscribeKey(key: string): Promise<{ userId: number; realmId: number } | null> {
    return this.prisma.missedMessageUnsubscribeKey.findUnique({ where: { key }, select: { userId: true, realmId: true } });
  }
}

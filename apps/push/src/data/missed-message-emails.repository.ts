import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';

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
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Adds messages to recipients' batches; a message already waiting keeps its place. A message
   * joins its recipient's open batch (due at that batch's time), else starts one due after
   * the recipient's period: answers each recipient's due time.
   */
  async add(realmId: number, messageId: number, entries: { userId: number; trigger: string; dueAt: Date }[]): Promise<Map<number, Date>> {
    const open = await this.prisma.missedMessageEmail.groupBy({
      by: ['userId'],
      where: { userId: { in: entries.map((entry) => entry.userId) } },
      _min: { dueAt: true },
    });
    const openDue = new Map(open.map((row) => [row.userId, row._min.dueAt!]));
    const due = new Map(entries.map((entry) => [entry.userId, openDue.get(entry.userId) ?? entry.dueAt]));
    await this.prisma.missedMessageEmail.createMany({
      data: entries.map((entry) => ({ realmId, messageId, userId: entry.userId, trigger: entry.trigger, dueAt: due.get(entry.userId)! })),
      skipDuplicates: true,
    });
    return due;
  }

  /** Takes out the user's whole batch when it is due (else nothing): the messages to mail. */
  async takeDue(userId: number, now: Date): Promise<PendingEmailEntry[]> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ messageId: number; trigger: string; dueAt: Date }[]>`
        SELECT message_id AS "messageId", trigger, due_at AS "dueAt" FROM missed_message_emails WHERE user_id = ${userId} ORDER BY message_id FOR UPDATE`;
      if (rows.length === 0 || rows.every((row) => row.dueAt > now)) return [];
      await tx.missedMessageEmail.deleteMany({ where: { userId, messageId: { in: rows.map((row) => row.messageId) } } });
      return rows.map(({ messageId, trigger }) => ({ messageId, trigger }));
    });
  }

  /** The user's batches still waiting (the recovery sweep). */
  async dueTimes(): Promise<{ userId: number; dueAt: Date }[]> {
    const rows = await this.prisma.missedMessageEmail.groupBy({ by: ['userId'], _min: { dueAt: true } });
    return rows.map((row) => ({ userId: row.userId, dueAt: row._min.dueAt! }));
  }

  /** The user's unsubscribe key, made on first use. */
  async unsubscribeKey(realmId: number, userId: number): Promise<string> {
    const found = await this.prisma.missedMessageUnsubscribeKey.findUnique({ where: { userId } });
    if (found) return found.key;
    const key = randomBytes(20).toString('hex');
    await this.prisma.missedMessageUnsubscribeKey.createMany({ data: [{ key, userId, realmId }], skipDuplicates: true });
    return (await this.prisma.missedMessageUnsubscribeKey.findUniqueOrThrow({ where: { userId } })).key;
  }

  async byUnsubscribeKey(key: string): Promise<{ userId: number; realmId: number } | null> {
    return this.prisma.missedMessageUnsubscribeKey.findUnique({ where: { key }, select: { userId: true, realmId: true } });
  }
}

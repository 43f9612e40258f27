import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';

/** The `push_notified_messages` table: which messages each user's phones were notified of. */
@Injectable()
export class PushNotifiedRepository {
  constructor(private readonly prisma: PrismaService) {}

  async record(realmId: number, messageId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.prisma.pushNotifiedMessage.createMany({ data: userIds.map((userId) => ({ realmId, userId, messageId })), skipDuplicates: true });
  }

  /**
   * Takes the user's notified messages among these out (they are read, or gone): the ones
   * returned are those the phones still show.
   */
  async takeOut(userId: number, messageIds: number[]): Promise<{ realmId: number; messageIds: number[] }[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.prisma.pushNotifiedMessage.findMany({ where: { userId, messageId: { in: messageIds } }, select: { realmId: true, messageId: true } });
    if (rows.length === 0) return [];
    await this.prisma.pushNotifiedMessage.deleteMany({ where: { userId, messageId: { in: rows.map((row) => row.messageId) } } });
    const byRealm = new Map<number, number[]>();
    for (const row of rows) byRealm.set(row.realmId, [...(byRealm.get(row.realmId) ?? []), row.messageId]);
    return [...byRealm].map(([realmId, ids]) => ({ realmId, messageIds: ids.sort((a, b) => a - b) }));
  }

  /** Takes these messages out for every user whose phones show them (the messages are gone). */
  async takeOutMessages(messageIds: number[]): Promise<{ realmId: number; userId: number; messageIds: number[] }[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.prisma.pushNotifiedMessage.findMany({ where: { messageId: { in: messageIds } }, select: { realmId: true, userId: true, messageId: true } });
    if (rows.length === 0) return [];
    await this.prisma.pushNotifiedMessage.deleteMany({ where: { messageId: { in: rows.map((row) => row.messageId) } } });
    const byUser = new Map<number, { realmId: number; userId: number; messageIds: number[] }>();
    for (const row of rows) {
      const entry = byUser.get(row.userId) ?? { realmId: row.realmId, userId: row.userId, messageIds: [] };
      entry.messageIds.push(row.messageId);
      byUser.set(row.userId, entry);
    }
    return [...byUser.values()].map((entry) => ({ ...entry, messageIds: entry.messageIds.sort((a, b) => a - b) }));
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';

export interface PushTokenRow {
  id: number;
  realmId: number;
  userId: number;
  kind: number;
  token: string;
  iosAppId: string | null;
}

/** The `push_device_tokens` table: the older, token-carrying registrations (Zulip's PushDeviceToken). */
@Injectable()
export class PushDeviceTokensRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Stores the token for the user (a repeat changes nothing but the iOS app id). */
  async save(row: Omit<PushTokenRow, 'id'>): Promise<void> {
    await this.prisma.pushDeviceToken.upsert({
      where: { userId_kind_token: { userId: row.userId, kind: row.kind, token: row.token } },
      create: row,
      update: { iosAppId: row.iosAppId },
    });
  }

  /** Removes the user's token; false when there was none. */
  async remove(userId: number, kind: number, token: string): Promise<boolean> {
    const { count } = await this.prisma.pushDeviceToken.deleteMany({ where: { userId, kind, token } });
    return count > 0;
  }

  /** The user's tokens (all kinds, or the one with this token), oldest first. */
  ofUser(userId: number, token?: string): Promise<PushTokenRow[]> {
    return this.prisma.pushDeviceToken.findMany({ where: { userId, ...(token !== undefined ? { token } : {}) }, orderBy: { id: 'asc' } });
  }

  /** Which of these users have at least one token. */
  async usersWithTokens(userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.prisma.pushDeviceToken.findMany({ where: { userId: { in: userIds } }, select: { userId: true }, distinct: ['userId'] });
    return new Set(rows.map((row) => row.userId));
  }
}

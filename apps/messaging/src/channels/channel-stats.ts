import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';
import type { ChannelStats } from './channel-record';

const RECENT_MS = 180 * 24 * 3600 * 1000;

/** Subscriber counts and recent activity of several channels, in two queries. */
@Injectable()
export class ChannelStatsReader {
  constructor(private readonly prisma: PrismaService) {}

  async of(channels: { id: number; dateCreated: Date }[]): Promise<Map<number, ChannelStats>> {
    const ids = channels.map((c) => c.id);
    const since = new Date(Date.now() - RECENT_MS);
    const [counts, recent] = await Promise.all([
      this.prisma.subscription.groupBy({ by: ['streamId'], where: { streamId: { in: ids }, active: true }, _count: { _all: true } }),
      this.prisma.message.groupBy({ by: ['streamId'], where: { streamId: { in: ids }, dateSent: { gte: since } } }),
    ]);
    const countOf = new Map(counts.map((row) => [row.streamId, row._count._all]));
    const active = new Set(recent.map((row) => row.streamId));
    return new Map(
      channels.map((c) => [
        c.id,
        { subscriberCount: countOf.get(c.id) ?? 0, isRecentlyActive: active.has(c.id) || c.dateCreated >= since },
      ]),
    );
  }
}

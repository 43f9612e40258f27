import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@teamchat/db';
import type { ChannelStats } from './channel-record';

const RECENT_MS = 180 * 24 * 3600 * 1000;

/**
 * Subscriber counts (active users only) and recent activity of several channels, in two queries.
 * Reads users-groups' `users` table read-only for the active flag.
 */
@Injectable()
export class ChannelStatsReader {
  constructor(private readonly prisma: PrismaService) {}

  async of(channels: { id: number; dateCreated: Date }[]): Promise<Map<number, ChannelStats>> {
    const ids = channels.map((c) => c.id);
    const since = new Date(Date.now() - RECENT_MS);
    const [counts, recent] = await Promise.all([
      // Deactivated users' subscriptions stay, but Zulip does not count them.
      ids.length === 0
        ? Promise.resolve([] as { stream_id: number; n: number }[])
        : this.prisma.$queryRaw<{ stream_id: number; n: number }[]>`
            SELECT s.stream_id, count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
            WHERE s.stream_id IN (${Prisma.join(ids)}) AND s.active AND u.is_active GROUP BY s.stream_id`,
      this.prisma.message.groupBy({ by: ['streamId'], where: { streamId: { in: ids }, dateSent: { gte: since } } }),
    ]);
    const countOf = new Map(counts.map((row) => [row.stream_id, row.n]));
    const active = new Set(recent.map((row) => row.streamId));
    return new Map(
      channels.map((c) => [
        c.id,
        { subscriberCount: countOf.get(c.id) ?? 0, isRecentlyActive: active.has(c.id) || c.dateCreated >= since },
      ]),
    );
  }
}

import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { channelsWithMessagesSince, subscriberCounts } from '../core/messaging.sql';
import type { ChannelStats } from './channel-record';

const RECENT_MS = 180 * 24 * 3600 * 1000;

/**
 * Subscriber counts (active users only) and recent activity of several channels, in two queries.
 * Reads users-groups' `users` table read-only for the active flag.
 */
@Injectable()
export class ChannelStatsReader {
  constructor(private readonly pg: PgService) {}

  async of(channels: { id: number; dateCreated: Date }[]): Promise<Map<number, ChannelStats>> {
    const ids = channels.map((c) => c.id);
    const since = new Date(Date.now() - RECENT_MS);
    if (ids.length === 0) return new Map();
    // Deactivated users' subscriptions stay, but Zulip does not count them.
    const [counts, recent] = await Promise.all([this.pg.run(subscriberCounts, ids), this.pg.run(channelsWithMessagesSince, ids, since)]);
    const countOf = new Map(counts.map((row) => [row.streamId, row.count]));
    const active = new Set(recent.map((row) => row.streamId));
    return new Map(
      channels.map((c) => [
        c.id,
        { subscriberCount: countOf.get(c.id) ?? 0, isRecentlyActive: active.has(c.id) || c.dateCreated >= since },
      ]),
    );
  }
}

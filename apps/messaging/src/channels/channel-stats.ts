import { Injectable } from '@nestjs/common';
import { ChannelStatsRepository } from '../data/channel-stats.repository';
import { GroupsReadonlyRepository } from '../data/groups.readonly.repository';
import type { ColdTx } from '../data/transactions';
import { settingGroupIds, type ChannelStats } from './channel-record';
import type { ChannelPermissionColumns } from './channel-permission-settings';

const RECENT_MS = 180 * 24 * 3600 * 1000;

/**
 * Subscriber counts (active users only), recent activity and permission-setting values of
 * several channels, in three queries at once.
 * Reads users-groups' `users` table read-only for the active flag.
 */
@Injectable()
export class ChannelStatsReader {
  constructor(
    private readonly counts: ChannelStatsRepository,
    private readonly groups: GroupsReadonlyRepository,
  ) {}

  /** `tx`: a transaction that created some of these channels (their permission groups are not committed yet). */
  async of(channels: ({ id: number; dateCreated: Date } & ChannelPermissionColumns)[], tx?: ColdTx): Promise<Map<number, ChannelStats>> {
    const ids = channels.map((c) => c.id);
    const since = new Date(Date.now() - RECENT_MS);
    if (ids.length === 0) return new Map();
    // Deactivated users' subscriptions stay, but Zulip does not count them.
    const [countOf, recent, settingValues] = await Promise.all([
      this.counts.subscriberCounts(ids),
      this.counts.channelsWithMessagesSince(ids, since),
      this.groups.settingValues(settingGroupIds(channels), tx),
    ]);
    const active = new Set(recent);
    return new Map(
      channels.map((c) => [
        c.id,
        { subscriberCount: countOf.get(c.id) ?? 0, isRecentlyActive: active.has(c.id) || c.dateCreated >= since, settingValues },
      ]),
    );
  }
}

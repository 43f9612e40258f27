import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging, SubscriptionRecord } from '@teamchat/contracts';
import { Prisma, PrismaService } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { toSubscriptionRecord } from './channel-record';
import { ChannelStatsReader } from './channel-stats';

type Params = DecodedParams<typeof Messaging.listSubscriptionsParams>;

/** GET /users/me/subscriptions: the caller's active subscriptions, by channel name. */
@Injectable()
export class ListSubscriptions {
  constructor(
    private readonly prisma: PrismaService,
    private readonly stats: ChannelStatsReader,
  ) {}

  async execute({ user, params }: ApiCommand<Params>): Promise<{ subscriptions: SubscriptionRecord[] }> {
    const subs = await this.prisma.subscription.findMany({
      where: { userId: user!.id, active: true, stream: { isArchived: false } },
      include: { stream: true },
    });
    const subscribers = params.include_subscribers ? await this.subscribersOf(subs.map((s) => s.streamId)) : undefined;
    const stats = await this.stats.of(subs.map((sub) => sub.stream));
    const records = subs.map((sub) =>
      toSubscriptionRecord(sub.stream, stats.get(sub.streamId)!, sub, subscribers && (subscribers.get(sub.streamId) ?? [])),
    );
    records.sort((a, b) => a.name.localeCompare(b.name));
    return { subscriptions: records };
  }

  /** The active subscribers of each channel, in id order (no entry for a channel without any). */
  async subscribersOf(streamIds: number[]): Promise<Map<number, number[]>> {
    const rows = await this.prisma.subscription.findMany({
      where: { streamId: { in: streamIds }, active: true, userId: { in: await this.activeUserIds(streamIds) } },
      select: { streamId: true, userId: true },
      orderBy: { userId: 'asc' },
    });
    const byStream = new Map<number, number[]>();
    for (const row of rows) byStream.set(row.streamId, [...(byStream.get(row.streamId) ?? []), row.userId]);
    return byStream;
  }

  /** Subscribers of these channels whose accounts are active (Zulip leaves out deactivated ones). */
  private async activeUserIds(streamIds: number[]): Promise<number[]> {
    if (streamIds.length === 0) return [];
    const rows = await this.prisma.$queryRaw<{ id: number }[]>`
      SELECT DISTINCT u.id FROM subscriptions s JOIN users u ON u.id = s.user_id
      WHERE s.stream_id IN (${Prisma.join(streamIds)}) AND s.active AND u.is_active`;
    return rows.map((row) => row.id);
  }
}

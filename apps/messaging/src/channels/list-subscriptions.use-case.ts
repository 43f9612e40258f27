import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging, SubscriptionRecord } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
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

  private async subscribersOf(streamIds: number[]): Promise<Map<number, number[]>> {
    const rows = await this.prisma.subscription.findMany({
      where: { streamId: { in: streamIds }, active: true },
      select: { streamId: true, userId: true },
      orderBy: { userId: 'asc' },
    });
    const byStream = new Map<number, number[]>();
    for (const row of rows) byStream.set(row.streamId, [...(byStream.get(row.streamId) ?? []), row.userId]);
    return byStream;
  }
}

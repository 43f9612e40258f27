import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging, SubscriptionRecord } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { toSubscriptionRecord } from './channel-record';
import { ChannelStatsReader } from './channel-stats';

type Params = DecodedParams<typeof Messaging.listSubscriptionsParams>;

/** GET /users/me/subscriptions: the caller's active subscriptions, by channel name. */
@Injectable()
export class ListSubscriptions {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly stats: ChannelStatsReader,
  ) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ subscriptions: SubscriptionRecord[] }> {
    const channels = (await this.subscriptions.channelsWithOwnSubscription(realm.id, user.id, false)).filter((c) => c.subscription?.active);
    const subscribers = params.include_subscribers ? await this.subscribersOf(channels.map((c) => c.id)) : undefined;
    const stats = await this.stats.of(channels);
    const records = channels.map((c) =>
      toSubscriptionRecord(c, stats.get(c.id)!, c.subscription!, subscribers && (subscribers.get(c.id) ?? [])),
    );
    records.sort((a, b) => a.name.localeCompare(b.name));
    return { subscriptions: records };
  }

  /** The active subscribers of each channel, in id order (no entry for a channel without any). */
  async subscribersOf(streamIds: number[]): Promise<Map<number, number[]>> {
    const rows = await this.subscriptions.activeSubscribersOf(streamIds);
    const byStream = new Map<number, number[]>();
    for (const row of rows) byStream.set(row.streamId, [...(byStream.get(row.streamId) ?? []), row.userId]);
    return byStream;
  }
}

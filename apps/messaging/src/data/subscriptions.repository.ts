import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import {
  activeSubscriberIds,
  activeSubscribersOfChannels,
  channelsWithOwnSubscription,
  subscriberCounts,
  type ChannelWithOwnSubscriptionRow,
} from './subscriptions.sql';

export type { ChannelWithOwnSubscriptionRow, OwnSubscription } from './subscriptions.sql';

/** `subscriptions`, which messaging owns: who is subscribed to which channel, on the hot paths. */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly pg: PgService) {}

  /** A channel's active subscribers whose accounts are active, in id order. */
  async activeSubscriberIds(streamId: number): Promise<number[]> {
    return (await this.pg.run(activeSubscriberIds, streamId)).map((row) => row.userId);
  }

  /** The active subscribers, with active accounts, of each of these channels, in user id order. */
  async activeSubscribersOf(streamIds: number[]): Promise<{ streamId: number; userId: number }[]> {
    return streamIds.length === 0 ? [] : this.pg.run(activeSubscribersOfChannels, streamIds);
  }

  /** How many active subscribers with active accounts each of these channels has (none: absent). */
  async counts(streamIds: number[]): Promise<Map<number, number>> {
    return new Map((await this.pg.run(subscriberCounts, streamIds)).map((row) => [row.streamId, row.count]));
  }

  /** The organization's channels in id order (archived ones too when asked), each with the user's subscription row if any. */
  channelsWithOwnSubscription(realmId: number, userId: number, includeArchived: boolean): Promise<ChannelWithOwnSubscriptionRow[]> {
    return this.pg.run(channelsWithOwnSubscription, realmId, userId, includeArchived);
  }
}

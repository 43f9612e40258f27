import { Injectable } from '@nestjs/common';
import { PgService, PrismaService } from '@teamchat/db';
import {
  activeSubscriberIds,
  activeSubscribersOfChannels,
  channelsWithOwnSubscription,
  type ChannelWithOwnSubscriptionRow,
} from './subscriptions.sql';

export type { ChannelWithOwnSubscriptionRow, OwnSubscription } from './subscriptions.sql';

/** `subscriptions`, which messaging owns: who is subscribed to which channel, on the hot paths. */
@Injectable()
export class SubscriptionsRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /** Whether the user is an active subscriber of the channel. */
  async isActiveSubscriber(streamId: number, userId: number): Promise<boolean> {
    return (await this.prisma.subscription.count({ where: { streamId, userId, active: true } })) > 0;
  }

  /** The users with an active subscription to the channel, whatever their account's state. */
  async subscribedUserIds(streamId: number): Promise<number[]> {
    return (await this.prisma.subscription.findMany({ where: { streamId, active: true }, select: { userId: true } })).map((s) => s.userId);
  }

  /** A channel's active subscribers whose accounts are active, in id order. */
  async activeSubscriberIds(streamId: number): Promise<number[]> {
    return (await this.pg.run(activeSubscriberIds, streamId)).map((row) => row.userId);
  }

  /** The active subscribers, with active accounts, of each of these channels, in user id order. */
  async activeSubscribersOf(streamIds: number[]): Promise<{ streamId: number; userId: number }[]> {
    return streamIds.length === 0 ? [] : this.pg.run(activeSubscribersOfChannels, streamIds);
  }

  /** The organization's channels in id order (archived ones too when asked), each with the user's subscription row if any. */
  channelsWithOwnSubscription(realmId: number, userId: number, includeArchived: boolean): Promise<ChannelWithOwnSubscriptionRow[]> {
    return this.pg.run(channelsWithOwnSubscription, realmId, userId, includeArchived);
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type StreamModel, type SubscriptionModel } from '@teamchat/db';
import {
  activeSubscriberIds,
  activeSubscribersOfChannels,
  channelsWithOwnSubscription,
  type ChannelWithOwnSubscriptionRow,
} from './subscriptions.sql';

export type { ChannelWithOwnSubscriptionRow, OwnSubscription } from './subscriptions.sql';

/** A subscription's settings a user changes (color, muting, notifications…). */
export type SubscriptionSettings = Partial<
  Pick<SubscriptionModel, 'color' | 'isMuted' | 'pinToTop' | 'desktopNotifications' | 'audibleNotifications' | 'pushNotifications' | 'emailNotifications' | 'wildcardMentionsNotify'>
>;

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

  /** These channels of the organization, each with the user's active subscription (none: empty). */
  channelsWithActiveSubscriptionOf(realmId: number, streamIds: number[], userId: number): Promise<(StreamModel & { subscriptions: SubscriptionModel[] })[]> {
    return this.prisma.stream.findMany({
      where: { id: { in: streamIds }, realmId },
      include: { subscriptions: { where: { userId, active: true } } },
    });
  }

  /** Changes subscriptions' settings, all in one transaction. */
  async changeSettings(changes: Map<number, SubscriptionSettings>): Promise<void> {
    await this.prisma.$transaction([...changes].map(([subscriptionId, data]) => this.prisma.subscription.update({ where: { id: subscriptionId }, data })));
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

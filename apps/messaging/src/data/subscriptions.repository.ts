import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type StreamModel, type SubscriptionModel } from '@teamchat/db';
import {
  activeSubscriberIds,
  activeSubscribersOfChannels,
  channelsWithOwnSubscription,
  type ChannelWithOwnSubscriptionRow,
} from './subscriptions.sql';
import type { ColdTx } from './transactions';

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

  /** Changes subscriptions' settings, in the caller's transaction. */
  async changeSettings(changes: Map<number, SubscriptionSettings>, tx: ColdTx): Promise<void> {
    for (const [subscriptionId, data] of changes) await tx.subscription.update({ where: { id: subscriptionId }, data });
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

  /** The channels the user is actively subscribed to (as `tx` sees them). */
  async activeChannelIdsOf(userId: number, tx: ColdTx = this.prisma): Promise<number[]> {
    return (await tx.subscription.findMany({ where: { userId, active: true }, select: { streamId: true } })).map((s) => s.streamId);
  }

  /**
   * Subscribes the user to the channel (a new row with its color, or the old one reactivated),
   * receiving messages after `afterMessageId`.
   */
  subscribe(userId: number, streamId: number, color: string, afterMessageId: number, tx: ColdTx): Promise<SubscriptionModel> {
    return tx.subscription.upsert({
      where: { userId_streamId: { userId, streamId } },
      create: { userId, streamId, color, subscribedAfterMessageId: afterMessageId },
      update: { active: true, subscribedAfterMessageId: afterMessageId, dateSubscribed: new Date() },
    });
  }

  /** Ends the user's active subscription to the channel; false if there was none. */
  async deactivate(userId: number, streamId: number, tx: ColdTx): Promise<boolean> {
    const { count } = await tx.subscription.updateMany({ where: { userId, streamId, active: true }, data: { active: false } });
    return count > 0;
  }

  /** The active subscriptions of these channels, whatever the accounts' state, in user id order (as `tx` sees them). */
  activeOfChannels(streamIds: number[], tx: ColdTx = this.prisma): Promise<{ streamId: number; userId: number }[]> {
    return tx.subscription.findMany({
      where: { streamId: { in: streamIds }, active: true },
      select: { streamId: true, userId: true },
      orderBy: { userId: 'asc' },
    });
  }
}

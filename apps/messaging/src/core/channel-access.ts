import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { isStoredId, type StreamModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import { ChannelsRepository, type ChannelWithSubscriptionRow } from '../data/channels.repository';

export interface AccessibleChannel {
  channel: StreamModel;
  /** The caller's active subscription, if any. */
  subscription: { id: number; subscribedAfterMessageId: number; isMuted: boolean } | null;
}

/**
 * Whether a user may read a channel's messages (Zulip's access_stream_by_id): a public channel
 * to any non-guest, a private one only to its subscribers. A channel of another organization,
 * an archived one and one the user may not read are all "not found" to the caller.
 */
@Injectable()
export class ChannelAccess {
  constructor(private readonly channels: ChannelsRepository) {}

  async readable(realmId: number, user: Pick<AuthUser, 'id' | 'role'>, streamId: number): Promise<AccessibleChannel | null> {
    if (!isStoredId(streamId)) return null;
    const row = await this.channels.byIdForUser(streamId, realmId, user.id);
    return row ? accessFrom(row, user) : null;
  }

  async readableByName(realmId: number, user: Pick<AuthUser, 'id' | 'role'>, name: string): Promise<AccessibleChannel | null> {
    const row = await this.channels.byNameForUser(name.trim(), realmId, user.id);
    return row ? accessFrom(row, user) : null;
  }
}

/** A channel row's own columns (a row may carry more: the subscription, a send's context). */
const CHANNEL_COLUMNS = [
  'id',
  'realmId',
  'name',
  'description',
  'renderedDescription',
  'inviteOnly',
  'historyPublicToSubscribers',
  'isWebPublic',
  'isArchived',
  'creatorId',
  'firstMessageId',
  'dateCreated',
] as const satisfies readonly (keyof StreamModel)[];

/** The channel's own columns of a row that may carry more. */
export function channelFrom(row: ChannelWithSubscriptionRow): StreamModel {
  return Object.fromEntries(CHANNEL_COLUMNS.map((column) => [column, row[column]])) as StreamModel;
}

/** The channel and the user's subscription from one row; null where the user may not read it. */
export function accessFrom(row: ChannelWithSubscriptionRow, user: Pick<AuthUser, 'id' | 'role'>): AccessibleChannel | null {
  const channel = channelFrom(row);
  const { subscriptionId, subscriptionActive, subscribedAfterMessageId, subscriptionMuted } = row;
  if (subscriptionId !== null && subscriptionActive) {
    return { channel, subscription: { id: subscriptionId, subscribedAfterMessageId: subscribedAfterMessageId!, isMuted: subscriptionMuted! } };
  }
  if (channel.inviteOnly || user.role === Role.GUEST) return null;
  return { channel, subscription: null };
}

/**
 * With protected history (`history_public_to_subscribers` false), a subscriber sees only
 * messages after they subscribed; otherwise everything.
 */
export function firstVisibleMessageId(access: AccessibleChannel): number {
  if (access.channel.historyPublicToSubscribers || !access.subscription) return 0;
  return access.subscription.subscribedAfterMessageId + 1;
}

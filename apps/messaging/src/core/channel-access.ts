import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { PrismaService, isStoredId, type StreamModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';

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
  constructor(private readonly prisma: PrismaService) {}

  async readable(realmId: number, user: Pick<AuthUser, 'id' | 'role'>, streamId: number): Promise<AccessibleChannel | null> {
    if (!isStoredId(streamId)) return null;
    const channel = await this.prisma.stream.findFirst({ where: { id: streamId, realmId, isArchived: false } });
    return channel ? this.check(channel, user) : null;
  }

  async readableByName(realmId: number, user: Pick<AuthUser, 'id' | 'role'>, name: string): Promise<AccessibleChannel | null> {
    const channel = await this.prisma.stream.findFirst({
      where: { realmId, isArchived: false, name: { equals: name.trim(), mode: 'insensitive' } },
    });
    return channel ? this.check(channel, user) : null;
  }

  private async check(channel: StreamModel, user: Pick<AuthUser, 'id' | 'role'>): Promise<AccessibleChannel | null> {
    const subscription = await this.prisma.subscription.findUnique({
      where: { userId_streamId: { userId: user.id, streamId: channel.id } },
      select: { id: true, active: true, subscribedAfterMessageId: true, isMuted: true },
    });
    const active = subscription?.active
      ? { id: subscription.id, subscribedAfterMessageId: subscription.subscribedAfterMessageId, isMuted: subscription.isMuted }
      : null;
    if (active) return { channel, subscription: active };
    if (channel.inviteOnly || user.role === Role.GUEST) return null;
    return { channel, subscription: null };
  }
}

/**
 * With protected history (`history_public_to_subscribers` false), a subscriber sees only
 * messages after they subscribed; otherwise everything.
 */
export function firstVisibleMessageId(access: AccessibleChannel): number {
  if (access.channel.historyPublicToSubscribers || !access.subscription) return 0;
  return access.subscription.subscribedAfterMessageId + 1;
}

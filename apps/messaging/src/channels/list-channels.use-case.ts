import { Injectable } from '@nestjs/common';
import type { ApiCommand, ChannelRecord, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { toChannelRecord } from './channel-record';
import { ChannelStatsReader } from './channel-stats';

type Params = DecodedParams<typeof Messaging.listChannelsParams>;

/**
 * GET /streams: public channels (not for guests), the caller's subscribed ones, web-public
 * ones when asked, and every channel for an administrator who asks with include_all.
 */
@Injectable()
export class ListChannels {
  constructor(
    private readonly prisma: PrismaService,
    private readonly stats: ChannelStatsReader,
  ) {}

  async execute({ realm, user, params }: ApiCommand<Params>): Promise<{ streams: ChannelRecord[] }> {
    const caller = user!;
    const includeAll = params.include_all || params.include_all_active;
    if (includeAll && caller.role > Role.ADMINISTRATOR) throw badRequest('User not authorized for this query');

    const channels = await this.prisma.stream.findMany({
      where: { realmId: realm.id, ...(params.exclude_archived ? { isArchived: false } : {}) },
      include: { subscriptions: { where: { userId: caller.id, active: true }, select: { id: true } } },
      orderBy: { id: 'asc' },
    });
    const visible = channels.filter((channel) => {
      if (includeAll) return true;
      const subscribed = channel.subscriptions.length > 0;
      if (params.include_subscribed && subscribed) return true;
      if (params.include_web_public && channel.isWebPublic) return true;
      return params.include_public && !channel.inviteOnly && caller.role !== Role.GUEST;
    });
    const stats = await this.stats.of(visible);
    return { streams: visible.map((channel) => toChannelRecord(channel, stats.get(channel.id)!)) };
  }
}

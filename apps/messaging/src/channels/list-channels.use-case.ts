import { Injectable } from '@nestjs/common';
import type { UserCommand, ChannelRecord, Messaging } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { toChannelRecord } from './channel-record';
import { ChannelStatsReader } from './channel-stats';

type Params = DecodedParams<typeof Messaging.listChannelsParams>;

/**
 * GET /streams: public channels (not for guests), the caller's subscribed ones, web-public
 * and default ones when asked, and every channel for an administrator who asks with include_all.
 * With include_default each says whether it is a default channel (`is_default`), as in Zulip.
 */
@Injectable()
export class ListChannels {
  constructor(
    private readonly channelRows: ChannelsRepository,
    private readonly stats: ChannelStatsReader,
  ) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ streams: (ChannelRecord & { is_default?: boolean })[] }> {
    const caller = user;
    const includeAll = params.include_all || params.include_all_active;
    if (includeAll && caller.role > Role.ADMINISTRATOR) throw badRequest('User not authorized for this query');

    const channels = await this.channelRows.allWithSubscribed(realm.id, caller.id, params.exclude_archived);
    const visible = channels.filter((channel) => isListed(channel, channel.subscribed, caller, { ...params, include_all: includeAll }));
    const [stats, defaults] = await Promise.all([
      this.stats.of(visible),
      params.include_default ? this.channelRows.defaultIds(realm.id).then((ids) => new Set(ids)) : undefined,
    ]);
    return {
      streams: visible.map((channel) => ({
        ...toChannelRecord(channel, stats.get(channel.id)!),
        ...(defaults ? { is_default: defaults.has(channel.id) } : {}),
      })),
    };
  }
}

/**
 * Whether GET /streams lists a channel: every one with `include_all`, else those the caller is
 * subscribed to, web-public ones and public ones (not for guests) as the flags ask.
 */
export function isListed(
  channel: { inviteOnly: boolean; isWebPublic: boolean; isDefault?: boolean },
  subscribed: boolean,
  caller: { role: number },
  flags: Pick<Params, 'include_all' | 'include_subscribed' | 'include_web_public' | 'include_public'> & { include_default?: boolean },
): boolean {
  if (flags.include_all) return true;
  // Default channels are public, so a guest sees them only as any public channel.
  if (flags.include_default && channel.isDefault && !channel.inviteOnly && caller.role !== Role.GUEST) return true;
  if (flags.include_subscribed && subscribed) return true;
  if (flags.include_web_public && channel.isWebPublic) return true;
  return flags.include_public && !channel.inviteOnly && caller.role !== Role.GUEST;
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, ChannelRecord, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { toChannelRecord } from '../channels/channel-record';
import { ChannelStatsReader } from '../channels/channel-stats';
import { ChannelPermissions } from './channel-permissions';

/** GET /streams/{stream_id}: one channel the caller may see. */
@Injectable()
export class GetChannel {
  constructor(
    private readonly access: ChannelPermissions,
    private readonly stats: ChannelStatsReader,
  ) {}

  async execute({ user, params }: UserCommand<DecodedParams<typeof Messaging.getChannelParams>>): Promise<{ stream: ChannelRecord }> {
    const { channel } = await this.access.visible(user, params.stream_id);
    const stats = await this.stats.of([channel]);
    return { stream: toChannelRecord(channel, stats.get(channel.id)!) };
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';

/**
 * GET /get_stream_id (zerver/views/streams.py get_stream_id): the id of the channel of that
 * name (whatever its case) if the caller may read it; a private channel they are not in, one of
 * another organization and an archived one are all "Invalid channel name".
 */
@Injectable()
export class GetChannelId {
  constructor(private readonly channels: ChannelAccess) {}

  async execute({ realm, user, params }: UserCommand<DecodedParams<typeof Messaging.getChannelIdParams>>): Promise<{ stream_id: number }> {
    const access = await this.channels.readableByName(realm.id, user, params.stream);
    if (!access) throw badRequest(`Invalid channel name '${params.stream}'`);
    return { stream_id: access.channel.id };
  }
}

import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PgService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { markChannelRead } from '../core/messaging.sql';
import { readableChannel } from '../topics/topic-access';
import { messagesReadEvent } from '../topics/topic-events';

/**
 * POST /mark_stream_as_read (zerver/views/message_flags.py mark_channel_as_read): the caller's
 * unread messages of a channel they may read become read (`Invalid channel ID` otherwise), and
 * the caller's clients are told which.
 */
@Injectable()
export class MarkChannelAsRead {
  constructor(
    private readonly pg: PgService,
    private readonly channels: ChannelAccess,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<DecodedParams<typeof Messaging.markChannelAsReadParams>>): Promise<Record<string, never>> {
    const { access } = await readableChannel(this.channels, realm.id, user!, params.stream_id);
    const read = (await this.pg.run(markChannelRead, user!.id, access.channel.id)).map((row) => row.messageId).sort((a, b) => a - b);
    if (read.length > 0) await this.events.publishAll([messagesReadEvent(realm.id, user!.id, read)], requestId);
    return {};
  }
}

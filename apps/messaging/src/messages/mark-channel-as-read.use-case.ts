import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MessageFlagsRepository } from '../data/message-flags.repository';
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
    private readonly flags: MessageFlagsRepository,
    private readonly channels: ChannelAccess,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.markChannelAsReadParams>>): Promise<Record<string, never>> {
    const { access } = await readableChannel(this.channels, realm.id, user, params.stream_id);
    const read = (await this.flags.markChannelRead(user.id, access.channel.id)).sort((a, b) => a - b);
    if (read.length > 0) await this.events.publishAll([messagesReadEvent(realm.id, user.id, read)], requestId);
    return {};
  }
}

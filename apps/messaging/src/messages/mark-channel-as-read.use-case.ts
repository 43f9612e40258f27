import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import type { UserCommand, Messaging } from '@teamchat/contracts';
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
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.markChannelAsReadParams>>): Promise<Record<string, never>> {
    const { access } = await readableChannel(this.channels, realm.id, user, params.stream_id);
    return this.outbox.run(async (tx) => {
      const read = (await this.flags.markChannelRead(user.id, access.channel.id, tx)).sort((a, b) => a - b);
      return { value: {}, events: read.length > 0 ? [messagesReadEvent(realm.id, user.id, read)] : [] };
    }, requestId);
  }
}

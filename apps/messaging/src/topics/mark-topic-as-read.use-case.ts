import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { readableChannel } from './topic-access';
import { messagesReadEvent } from './topic-events';
import { topicFromClient } from './topic-names';

type Params = DecodedParams<typeof Messaging.markTopicAsReadParams>;

/**
 * POST /mark_topic_as_read (zerver/views/message_flags.py mark_topic_as_read): the caller's
 * unread messages of the topic become read, and the caller's clients are told which. A topic
 * the caller never received a message of is `No such topic`.
 */
@Injectable()
export class MarkTopicAsRead {
  constructor(
    private readonly flags: MessageFlagsRepository,
    private readonly channels: ChannelAccess,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const { access } = await readableChannel(this.channels, realm.id, caller, params.stream_id);
    const topic = topicFromClient(params.topic_name);
    const streamId = access.channel.id;

    if (!(await this.flags.receivedInTopic(caller.id, streamId, topic))) throw badRequest(`No such topic '${topic}'`);

    return this.outbox.runCold(async (tx) => {
      const updated = (await this.flags.markTopicRead(caller.id, streamId, topic, tx)).sort((a, b) => a - b);
      return { value: {}, events: updated.length > 0 ? [messagesReadEvent(realm.id, caller.id, updated)] : [] };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { readableChannel } from './topic-access';
import { messagesReadEvent } from './topic-events';
import { topicFromClient } from './topic-names';
import { inTopic } from './topic-scope';

type Params = DecodedParams<typeof Messaging.markTopicAsReadParams>;

/**
 * POST /mark_topic_as_read (zerver/views/message_flags.py mark_topic_as_read): the caller's
 * unread messages of the topic become read, and the caller's clients are told which. A topic
 * the caller never received a message of is `No such topic`.
 */
@Injectable()
export class MarkTopicAsRead {
  constructor(
    private readonly prisma: PrismaService,
    private readonly channels: ChannelAccess,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    const caller = user!;
    const { access } = await readableChannel(this.channels, realm.id, caller, params.stream_id);
    const topic = topicFromClient(params.topic_name);
    const streamId = access.channel.id;

    const received = await this.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ${caller.id} AND ${inTopic('m', streamId, topic)}
      LIMIT 1`;
    if (received.length === 0) throw badRequest(`No such topic '${topic}'`);

    const updated = await this.prisma.$queryRaw<{ message_id: number }[]>`
      UPDATE user_messages um SET flags = um.flags | 1 -- the read bit
      FROM messages m
      WHERE m.id = um.message_id AND um.user_id = ${caller.id} AND ${inTopic('m', streamId, topic)}
        AND (um.flags & 1) = 0
      RETURNING um.message_id`;
    if (updated.length === 0) return {};

    const messages = updated.map((row) => row.message_id).sort((a, b) => a - b);
    await this.events.publishAll([messagesReadEvent(realm.id, caller.id, messages)], requestId);
    return {};
  }
}

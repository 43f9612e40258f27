import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MessagesRepository } from '../data/messages.repository';
import { readableChannel } from './topic-access';
import { topicForClient } from './topic-names';

type Params = DecodedParams<typeof Messaging.listTopicsParams>;

/**
 * GET /users/me/{stream_id}/topics (zerver/lib/topic.py get_topic_history_for_stream): one
 * entry per topic, case-insensitively, named as its newest message names it, newest first.
 * With protected history only topics of messages the caller may see count, so a bot sees what
 * came after its own subscription, not its owner's.
 */
@Injectable()
export class ListTopics {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelAccess,
  ) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ topics: Messaging.TopicEntry[] }> {
    const caller = user;
    const { access, visibleFrom } = await readableChannel(this.channels, realm.id, caller, params.stream_id);
    const rows = await this.messages.latestTopics(realm.id, access.channel.id, caller.id, visibleFrom);
    return {
      topics: rows.map((row) => ({ name: topicForClient(row.topic, params.allow_empty_topic_name), max_id: row.id })),
    };
  }
}

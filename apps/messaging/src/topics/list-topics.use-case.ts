import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { readableChannel } from './topic-access';
import { topicForClient } from './topic-names';
import { visibleTo } from './topic-scope';

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
    private readonly prisma: PrismaService,
    private readonly channels: ChannelAccess,
  ) {}

  async execute({ realm, user, params }: ApiCommand<Params>): Promise<{ topics: Messaging.TopicEntry[] }> {
    const caller = user!;
    const { access, visibleFrom } = await readableChannel(this.channels, realm.id, caller, params.stream_id);
    const rows = await this.prisma.$queryRaw<{ id: number; topic: string }[]>`
      SELECT m.id, m.topic FROM messages m
      WHERE m.id IN (
        SELECT max(v.id) FROM messages v
        WHERE v.realm_id = ${realm.id} AND v.stream_id = ${access.channel.id} AND ${visibleTo('v', caller.id, visibleFrom)}
        GROUP BY lower(v.topic)
      )
      ORDER BY m.id DESC`;
    return {
      topics: rows.map((row) => ({ name: topicForClient(row.topic, params.allow_empty_topic_name), max_id: row.id })),
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { TopicsRepository } from '../data/topics.repository';
import { normalizeTopic } from '../messages/message-text';
import { Visibility } from '../messages/visibility-policy';
import { UpdateUserTopic } from './update-user-topic.use-case';

/**
 * PATCH /users/me/subscriptions/muted_topics (deprecated; zerver/views/muted_users.py
 * update_muted_topic): `add` sets the topic's visibility policy to muted, `remove` takes a muted
 * one back to inherit, through POST /user_topics' change. The channel is named by id or by name,
 * exactly one of them.
 */
@Injectable()
export class MuteTopic {
  constructor(
    private readonly topics: TopicsRepository,
    private readonly channels: ChannelAccess,
    private readonly userTopics: UpdateUserTopic,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.muteTopicParams>>): Promise<Record<string, never>> {
    const caller = user;
    if (params.stream_id === undefined && params.stream === undefined) throw badRequest("Please supply 'stream'.");
    if (params.stream_id !== undefined && params.stream !== undefined) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
    let streamId = params.stream_id;
    if (params.stream !== undefined) {
      const access = await this.channels.readableByName(realm.id, caller, params.stream);
      if (!access) throw badRequest(`Invalid channel name '${params.stream}'`);
      streamId = access.channel.id;
    }
    if (!isStoredId(streamId!)) throw badRequest('Invalid channel ID');
    const topic = normalizeTopic(params.topic);
    const current = await this.topics.visibilityOf(caller.id, streamId!, topic);
    const muted = current?.policy === Visibility.MUTED;
    if (params.op === 'add' && muted) throw badRequest('Topic already muted');
    if (params.op === 'remove' && !muted) throw badRequest('Topic is not muted');
    return this.userTopics.apply({
      realmId: realm.id,
      user: caller,
      streamId: streamId!,
      topic,
      policy: params.op === 'add' ? Visibility.MUTED : Visibility.INHERIT,
      requestId,
    });
  }
}

import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import type { UserCommand, AuthUser, Messaging } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { ChannelsRepository } from '../data/channels.repository';
import { TopicsRepository } from '../data/topics.repository';
import { normalizeTopic } from '../messages/message-text';
import { Visibility as VisibilityPolicy } from '../messages/visibility-policy';
import { userTopicChangedEvent } from './topic-events';

/** Zulip's UserTopic.VisibilityPolicy values: inherit, muted, unmuted, followed. */
const POLICIES: number[] = Object.values(VisibilityPolicy);

export interface TopicVisibilityChange {
  realmId: number;
  user: AuthUser;
  streamId: number;
  topic: string;
  policy: number;
  requestId: string;
}

/**
 * POST /user_topics (zerver/views/user_topics.py update_user_topic): sets the caller's
 * visibility policy for a topic of a channel they may read; 0 (inherit) removes it, and may
 * be done for a channel the caller can no longer read. A `user_topic` event goes to the
 * caller's clients when something changed.
 */
@Injectable()
export class UpdateUserTopic {
  constructor(
    private readonly topics: TopicsRepository,
    private readonly channelRows: ChannelsRepository,
    private readonly channels: ChannelAccess,
    private readonly outbox: EventOutbox,
  ) {}

  execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.updateUserTopicParams>>): Promise<Record<string, never>> {
    if (!POLICIES.includes(params.visibility_policy)) throw badRequest('Invalid visibility_policy');
    return this.apply({ realmId: realm.id, user: user, streamId: params.stream_id, topic: params.topic, policy: params.visibility_policy, requestId });
  }

  /** The change itself, shared with the deprecated PATCH /users/me/subscriptions/muted_topics. */
  async apply(change: TopicVisibilityChange): Promise<Record<string, never>> {
    const { realmId, user, streamId, policy } = change;
    const topic = normalizeTopic(change.topic);
    if (policy === VisibilityPolicy.INHERIT) {
      // Zulip's access_stream_to_remove_visibility_policy_by_id: any channel of the organization.
      const exists = isStoredId(streamId) && (await this.channelRows.existsInRealm(streamId, realmId));
      if (!exists) throw badRequest('Invalid channel ID');
    } else {
      const access = await this.channels.readable(realmId, user, streamId);
      if (!access) throw badRequest('Invalid channel ID');
      const current = await this.topics.visibilityOf(user.id, streamId, topic);
      if (current?.policy === policy) return {};
    }
    return this.outbox.run(async (tx) => {
      if (policy !== VisibilityPolicy.INHERIT) await this.topics.setVisibility(user.id, streamId, topic, policy, tx);
      else if (!(await this.topics.clearVisibility(user.id, streamId, topic, tx))) return { value: {}, events: [] };
      return { value: {}, events: [userTopicChangedEvent(realmId, user.id, streamId, topic, policy, new Date())] };
    }, change.requestId);
  }
}

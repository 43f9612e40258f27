import { Injectable } from '@nestjs/common';
import type { Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { MemberProfiles } from '../core/member-profiles';
import { TopicsRepository } from '../data/topics.repository';
import { visibilityResetEvent } from './topic-events';

/**
 * The last step of a topic deletion (zerver/views/streams.py delete_in_topic): the topic no
 * longer exists, so its visibility policies (muted, followed…) go back to inherit, that is
 * their rows go, and each owner's clients are told. With protected history a user who still
 * has messages of the topic (ones the requester could not see) keeps theirs.
 */
@Injectable()
export class ResetTopicVisibility {
  constructor(
    private readonly topics: TopicsRepository,
    private readonly profiles: MemberProfiles,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(job: Messaging.TopicDeletionJob): Promise<number> {
    return this.outbox.runCold(async (tx) => {
      const reset = await this.topics.resetDeletedTopic(job.realmId, job.streamId, job.topic, tx);
      if (reset === null || reset.length === 0) return { value: 0, events: [] };
      // Every row goes; only active users are told.
      const now = new Date();
      const users = await this.profiles.activeIds(job.realmId, [...new Set(reset)], tx);
      return {
        value: reset.length,
        events: users.sort((a, b) => a - b).map((userId) => visibilityResetEvent(job.realmId, userId, job.streamId, job.topic, now)),
      };
    });
  }
}

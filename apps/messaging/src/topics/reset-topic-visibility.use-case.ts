import { Injectable } from '@nestjs/common';
import type { Messaging } from '@teamchat/contracts';
import { Prisma, PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { MemberProfiles } from '../core/member-profiles';
import { visibilityResetEvent } from './topic-events';
import { inTopic } from './topic-scope';

/**
 * The last step of a topic deletion (zerver/views/streams.py delete_in_topic): the topic no
 * longer exists, so its visibility policies (muted, followed…) go back to inherit, that is
 * their rows go, and each owner's clients are told. With protected history a user who still
 * has messages of the topic (ones the requester could not see) keeps theirs.
 */
@Injectable()
export class ResetTopicVisibility {
  constructor(
    private readonly prisma: PrismaService,
    private readonly profiles: MemberProfiles,
    private readonly events: EventBus,
  ) {}

  async execute(job: Messaging.TopicDeletionJob): Promise<number> {
    const [channel] = await this.prisma.$queryRaw<{ history_public_to_subscribers: boolean }[]>`
      SELECT history_public_to_subscribers FROM streams WHERE id = ${job.streamId} AND realm_id = ${job.realmId}`;
    if (!channel) return 0;
    const stillReceived = channel.history_public_to_subscribers
      ? Prisma.empty
      : Prisma.sql`AND NOT EXISTS (
          SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
          WHERE um.user_id = ut.user_id AND ${inTopic('m', job.streamId, job.topic)})`;
    const reset = await this.prisma.$queryRaw<{ user_id: number }[]>`
      DELETE FROM user_topics ut
      WHERE ut.stream_id = ${job.streamId} AND lower(ut.topic_name) = lower(${job.topic}) ${stillReceived}
      RETURNING ut.user_id`;
    if (reset.length === 0) return 0;
    // Every row goes; only active users are told.
    const now = new Date();
    const users = await this.profiles.activeIds(job.realmId, [...new Set(reset.map((row) => row.user_id))]);
    await this.events.publishAll(
      users.sort((a, b) => a - b).map((userId) => visibilityResetEvent(job.realmId, userId, job.streamId, job.topic, now)),
    );
    return reset.length;
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService } from '@teamchat/db';
import {
  clearTopicVisibility,
  moveTopicPolicies,
  setTopicVisibility,
  topicVisibilityOf,
  topicPoliciesOfUser,
  type TopicPolicyRow,
} from './topics.sql';
import { inTopic } from './topic-scope';
import type { ColdTx, Tx } from './transactions';

export type { TopicPolicyRow } from './topics.sql';

/**
 * `user_topics`, which messaging owns: each user's visibility policy of a topic (a topic is
 * matched whatever its case).
 */
@Injectable()
export class TopicsRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /**
   * A deleted topic's policies go (back to inherit): each removed row's user, null when the
   * channel is not the organization's. With protected history a user who still has messages of
   * the topic keeps theirs.
   */
  async resetDeletedTopic(realmId: number, streamId: number, topic: string, tx: ColdTx = this.prisma): Promise<number[] | null> {
    const [channel] = await tx.$queryRaw<{ history_public_to_subscribers: boolean }[]>`
      SELECT history_public_to_subscribers FROM streams WHERE id = ${streamId} AND realm_id = ${realmId}`;
    if (!channel) return null;
    const stillReceived = channel.history_public_to_subscribers
      ? Prisma.empty
      : Prisma.sql`AND NOT EXISTS (
          SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
          WHERE um.user_id = ut.user_id AND ${inTopic('m', streamId, topic)})`;
    const reset = await tx.$queryRaw<{ user_id: number }[]>`
      DELETE FROM user_topics ut
      WHERE ut.stream_id = ${streamId} AND lower(ut.topic_name) = lower(${topic}) ${stillReceived}
      RETURNING ut.user_id`;
    return reset.map((row) => row.user_id);
  }

  /** A user's policy of a topic, if any. */
  async visibilityOf(userId: number, streamId: number, topic: string): Promise<{ policy: number; topicName: string } | null> {
    return (await this.pg.run(topicVisibilityOf, userId, streamId, topic))[0] ?? null;
  }

  /** Sets a user's policy of a topic, creating the row if need be. */
  async setVisibility(userId: number, streamId: number, topic: string, policy: number, tx: Tx = this.pg): Promise<void> {
    await tx.run(setTopicVisibility, userId, streamId, topic, policy);
  }

  /** Removes a user's policy of a topic (back to inherit); false when there was none. */
  async clearVisibility(userId: number, streamId: number, topic: string, tx: Tx = this.pg): Promise<boolean> {
    return (await tx.run(clearTopicVisibility, userId, streamId, topic)).length > 0;
  }

  /** A whole topic moved: its policies move with it; each user's policy, now in the new topic. */
  movePolicies(oldStreamId: number, oldTopic: string, newStreamId: number, newTopic: string, tx: Tx): Promise<{ userId: number; policy: number }[]> {
    return tx.run(moveTopicPolicies, oldStreamId, oldTopic, newStreamId, newTopic);
  }

  /** Every topic visibility policy of a user, with its channel (see topicPoliciesOfUser). */
  policiesOf(userId: number): Promise<TopicPolicyRow[]> {
    return this.pg.run(topicPoliciesOfUser, userId);
  }
}

import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { DeleteTopicBatch } from './delete-topic-batch.use-case';
import { DeleteTopic } from './delete-topic.use-case';
import { ListTopics } from './list-topics.use-case';
import { MarkTopicAsRead } from './mark-topic-as-read.use-case';
import { MuteTopic } from './mute-topic.use-case';
import { UpdateUserTopic } from './update-user-topic.use-case';
import { ResetTopicVisibility } from './reset-topic-visibility.use-case';
import { RunTopicDeletion } from './run-topic-deletion.use-case';
import { TopicDeletionQueue } from './topic-deletion.queue';
import { TopicDeletionWorker } from './topic-deletion.worker';
import { TopicsHandler } from './topics.handler';

/**
 * Topics: listing a channel's topics, marking one read, and deleting one through the
 * topic-deletion queue, whose worker runs in every messaging replica.
 */
@Module({
  imports: [MessagingCoreModule],
  controllers: [TopicsHandler],
  providers: [
    ListTopics,
    MarkTopicAsRead,
    DeleteTopic,
    TopicDeletionQueue,
    TopicDeletionWorker,
    RunTopicDeletion,
    DeleteTopicBatch,
    ResetTopicVisibility,
    UpdateUserTopic,
    MuteTopic,
  ],
})
export class TopicsModule {}

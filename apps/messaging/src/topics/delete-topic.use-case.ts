import { Inject, Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { LIMITS, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MessagesRepository } from '../data/messages.repository';
import { readableChannel } from './topic-access';
import { TopicDeletionQueue } from './topic-deletion.queue';
import { waitBudgetMs } from './topic-deletion.settings';
import { topicFromClient } from './topic-names';

type Params = DecodedParams<typeof Messaging.deleteTopicParams>;

/**
 * POST /streams/{stream_id}/delete_topic (zerver/views/streams.py delete_in_topic):
 * administrators only, and only the messages they may see. The deletion itself is a queued
 * job (see TopicDeletionWorker); the request waits for it up to a time budget and answers
 * whether it finished. A repeated request joins the job already running.
 */
@Injectable()
export class DeleteTopic {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelAccess,
    private readonly queue: TopicDeletionQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ complete: boolean }> {
    const caller = user;
    if (!isAdminRole(caller.role)) throw mustBeAdmin();
    const { access, visibleFrom } = await readableChannel(this.channels, realm.id, caller, params.stream_id);
    const topic = topicFromClient(params.topic_name);
    // No topic (nor visibility policy) can have a longer name: there is nothing to delete.
    if ([...topic].length > LIMITS.maxTopicLength) return { complete: true };
    const job: Messaging.TopicDeletionJob = {
      realmId: realm.id,
      streamId: access.channel.id,
      topic,
      requestedBy: caller.id,
      visibleFrom,
    };
    const complete = await this.queue.runAndWait(job, waitBudgetMs(this.config), () => this.nothingLeft(job));
    return { complete };
  }

  private async nothingLeft(job: Messaging.TopicDeletionJob): Promise<boolean> {
    return !(await this.messages.anyVisibleInTopic(job.realmId, job.streamId, job.topic, job.requestedBy, job.visibleFrom));
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging } from '@teamchat/contracts';
import { DeleteTopicBatch } from './delete-topic-batch.use-case';
import { ResetTopicVisibility } from './reset-topic-visibility.use-case';

export interface TopicDeletionRun {
  deleted: number;
  /** True when `shouldStop` ended the run between two batches, before the topic was done. */
  stopped: boolean;
}

/**
 * One run of a topic-deletion job: batches, newest first, until none is left, then the
 * topic's visibility policies reset. `shouldStop` is asked between batches, so a run can end
 * early without leaving a batch half done; the next run carries on from what is left.
 */
@Injectable()
export class RunTopicDeletion {
  constructor(
    private readonly batches: DeleteTopicBatch,
    private readonly visibility: ResetTopicVisibility,
  ) {}

  async execute(job: Messaging.TopicDeletionJob, shouldStop: () => boolean): Promise<TopicDeletionRun> {
    let deleted = 0;
    for (;;) {
      if (shouldStop()) return { deleted, stopped: true };
      const batch = await this.batches.execute(job);
      if (batch.found === 0) break;
      deleted += batch.deleted;
    }
    await this.visibility.execute(job);
    return { deleted, stopped: false };
  }
}

import { createHash } from 'node:crypto';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, withTraceData, type AppConfig } from '@teamchat/platform';
import { Queue, QueueEvents } from 'bullmq';
import type { Logger } from 'pino';
import { TOPIC_DELETION, bullmqConnection } from './topic-deletion.settings';

type Job = Messaging.TopicDeletionJob;

/**
 * The one job id of a deletion: per channel and (case-insensitive) topic, and per requester
 * where protected history makes what may be deleted depend on who asks. A topic name may hold
 * any character, so it enters the id as a hash (BullMQ ids may not contain `:`).
 */
export function topicDeletionJobId(job: Job): string {
  const topic = createHash('sha256').update(job.topic.toLowerCase()).digest('hex').slice(0, 32);
  const requester = job.visibleFrom === null ? '' : `-u${job.requestedBy}`;
  return `topic-${job.streamId}-${topic}${requester}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The request side of topic deletion: queues a job (or joins the one already queued or
 * running under the same id) and waits for it up to a time budget. Finished jobs are removed,
 * so the next request for the same topic queues a new job.
 */
@Injectable()
export class TopicDeletionQueue implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private queue!: Queue<Job, Messaging.TopicDeletionResult>;
  private events!: QueueEvents;
  private closing = false;
  /** Wakes every waiting request, so shutting down never waits out a time budget. */
  private readonly releases = new Set<() => void>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Connects in the background: Redis being late must not hold up the service's start. */
  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Messaging.TOPIC_DELETION_QUEUE, { connection, prefix });
    this.events = new QueueEvents(Messaging.TOPIC_DELETION_QUEUE, { connection, prefix });
    this.events.setMaxListeners(0); // one pair of listeners per waiting request
    this.queue.on('error', (err) => this.logger.error({ err }, 'topic deletion queue'));
    this.events.on('error', (err) => this.logger.error({ err }, 'topic deletion queue events'));
  }

  /**
   * Queues `job` unless its id is already queued or running, then waits up to `budgetMs`.
   * True when the job completed in time. `nothingLeft` answers when the completion event was
   * missed (the job is gone either way): whether anything it was to delete remains.
   */
  async runAndWait(job: Job, budgetMs: number, nothingLeft: () => Promise<boolean>): Promise<boolean> {
    const jobId = topicDeletionJobId(job);
    const deadline = Date.now() + budgetMs;
    let settle!: (complete: boolean) => void;
    const outcome = new Promise<boolean>((resolve) => (settle = resolve));
    const onCompleted = () => settle(true);
    const onFailed = ({ failedReason }: { failedReason: string }) => {
      this.logger.error({ jobId, failedReason }, 'topic deletion failed');
      settle(false);
    };
    const release = () => settle(false);
    // Listen before adding: a job that finishes at once must not slip by unseen. The per-job
    // event names (`completed:<id>`) are not in QueueEvents' typed listener map.
    const perJob = this.events as unknown as NodeJS.EventEmitter;
    perJob.on(`completed:${jobId}`, onCompleted);
    perJob.on(`failed:${jobId}`, onFailed);
    this.releases.add(release);
    try {
      await this.events.waitUntilReady(); // listening before the job can finish
      await this.queue.add(Messaging.TOPIC_DELETION_JOB, withTraceData(job), {
        jobId,
        removeOnComplete: true,
        removeOnFail: true,
        attempts: TOPIC_DELETION.attempts,
        backoff: { type: 'exponential', delay: 500 },
      });
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0 || this.closing) return false;
        const done = await Promise.race([outcome, sleep(Math.min(left, TOPIC_DELETION.pollMs)).then(() => undefined)]);
        if (done !== undefined) return done;
        if ((await this.queue.getJobState(jobId)) === 'unknown') return nothingLeft();
      }
    } finally {
      perJob.off(`completed:${jobId}`, onCompleted);
      perJob.off(`failed:${jobId}`, onFailed);
      this.releases.delete(release);
    }
  }

  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const release of this.releases) release();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.events?.close(), this.queue?.close()]);
  }
}

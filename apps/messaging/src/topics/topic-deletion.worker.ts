import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { WaitingError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { RunTopicDeletion } from './run-topic-deletion.use-case';
import { TOPIC_DELETION, bullmqConnection } from './topic-deletion.settings';

/**
 * The BullMQ adapter of RunTopicDeletion, in every messaging replica. On shutdown the batch
 * under way finishes and the job goes back to the queue for the next worker; a worker that
 * dies instead loses its lock, and the job is taken up again once BullMQ finds it stalled.
 * Either way the next run starts from what is left.
 */
@Injectable()
export class TopicDeletionWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Messaging.TopicDeletionJob, Messaging.TopicDeletionResult>;
  private closeMetrics?: () => Promise<void>;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly run: RunTopicDeletion,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Messaging.TOPIC_DELETION_QUEUE, (job, token) => traceJob(Messaging.TOPIC_DELETION_QUEUE, job, () => this.process(job, token)), {
      connection,
      prefix,
      concurrency: TOPIC_DELETION.concurrency,
      lockDuration: TOPIC_DELETION.lockDurationMs,
      stalledInterval: TOPIC_DELETION.stalledIntervalMs,
      maxStalledCount: TOPIC_DELETION.maxStalledCount,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'topic deletion worker'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
    this.worker.on('failed', (job, err) => this.logger.error({ err, jobId: job?.id }, 'topic deletion attempt failed'));
    this.worker.on('stalled', (jobId) => this.logger.warn({ jobId }, 'topic deletion resumed after its worker was lost'));
  }

  /** Lets the batch under way finish (Nest calls this before the database pool closes). */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private async process(
    job: Job<Messaging.TopicDeletionJob, Messaging.TopicDeletionResult>,
    token?: string,
  ): Promise<Messaging.TopicDeletionResult> {
    if (job.name !== Messaging.TOPIC_DELETION_JOB) throw new Error(`Unknown job ${job.name}`);
    const data = Messaging.topicDeletionJobSchema.parse(job.data);
    const { deleted, stopped } = await this.run.execute(data, () => this.stopping);
    if (stopped) {
      // Shutting down: back to the queue, not failed, for whichever worker is next.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    this.logger.info({ jobId: job.id, streamId: data.streamId, deleted }, 'topic deleted');
    return { deleted };
  }
}

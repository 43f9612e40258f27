import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { NOTIFICATION_WORKERS } from './notification.settings';
import { SendMessagePush } from './send-message-push.use-case';
import { SendPushRemoval } from './send-push-removal.use-case';

type PushJob = Push.PushMessageJob | Push.PushRemoveJob;

/**
 * The BullMQ adapter of mobile pushes (messages, removals), in every push replica. A push that
 * fails every attempt (PUSH_NOTIFY_ATTEMPTS, with backoff) is logged as an error and kept in
 * the queue's failed set.
 */
@Injectable()
export class MobilePushWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<PushJob>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly push: SendMessagePush,
    private readonly removal: SendPushRemoval,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Push.MOBILE_PUSH_QUEUE, (job) => traceJob(Push.MOBILE_PUSH_QUEUE, job, () => this.process(job)), {
      connection,
      prefix,
      concurrency: NOTIFICATION_WORKERS.pushConcurrency,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'mobile push worker'));
    this.worker.on('failed', (job, err) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || err.name === 'UnrecoverableError';
      if (final) this.logger.error({ err, jobId: job?.id, attempts: job?.attemptsMade }, 'mobile push failed; kept in the failed set');
      else this.logger.warn({ err, jobId: job?.id, attempt: job?.attemptsMade }, 'mobile push attempt failed; will retry');
    });
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private async process(job: Job<PushJob>): Promise<unknown> {
    if (job.name === Push.PUSH_MESSAGE_JOB) return this.push.execute(Push.pushMessageJobSchema.parse(job.data), (progress) => job.updateData(progress));
    if (job.name === Push.PUSH_REMOVE_JOB) return this.removal.execute(Push.pushRemoveJobSchema.parse(job.data));
    throw new Error(`Unknown job ${job.name}`);
  }
}

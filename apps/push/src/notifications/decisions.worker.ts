import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { DecideNotifications } from './decide-notifications.use-case';
import { NOTIFICATION_WORKERS } from './notification.settings';

/** The BullMQ adapter of DecideNotifications (the gateway's message-delivered jobs), in every push replica. */
@Injectable()
export class DecisionsWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Push.MessagesDeliveredJob>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly decide: DecideNotifications,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Push.MESSAGE_NOTIFICATIONS_QUEUE, (job) => traceJob(Push.MESSAGE_NOTIFICATIONS_QUEUE, job, () => this.process(job)), {
      connection,
      prefix,
      concurrency: NOTIFICATION_WORKERS.decisionConcurrency,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'notification decisions worker'));
    this.worker.on('failed', (job, err) => this.logger.warn({ err, jobId: job?.id }, 'notification decision failed'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private process(job: Job<Push.MessagesDeliveredJob>) {
    if (job.name !== Push.MESSAGES_DELIVERED_JOB) throw new Error(`Unknown job ${job.name}`);
    return this.decide.execute(Push.messagesDeliveredJobSchema.parse(job.data));
  }
}

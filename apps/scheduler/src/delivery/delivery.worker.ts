import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Scheduler } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { DeliverScheduledMessage } from './deliver-scheduled-message.use-case';
import { RecoverDeliveries } from './recover-deliveries.use-case';
import { DELIVERY } from './delivery.settings';

/**
 * The BullMQ adapter of DeliverScheduledMessage, in every scheduler replica, and the recovery
 * sweep (at start, then every DELIVERY.sweepIntervalMs) that makes Postgres the truth: a job
 * lost with Redis is re-created, an overdue message delivered. A worker that dies mid-delivery
 * loses its lock and the job runs again elsewhere; messaging's key makes that harmless.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Scheduler.DeliveryJob>;
  private closeMetrics?: () => Promise<void>;
  private sweep?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly deliver: DeliverScheduledMessage,
    private readonly recover: RecoverDeliveries,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Scheduler.DELIVERY_QUEUE, (job) => traceJob(Scheduler.DELIVERY_QUEUE, job, () => this.process(job)), {
      connection,
      prefix,
      concurrency: DELIVERY.concurrency,
      lockDuration: DELIVERY.lockDurationMs,
      stalledInterval: DELIVERY.stalledIntervalMs,
      maxStalledCount: DELIVERY.maxStalledCount,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'delivery worker'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
    this.worker.on('failed', (job, err) => this.logger.warn({ err, jobId: job?.id }, 'delivery attempt failed'));
    this.worker.on('stalled', (jobId) => this.logger.warn({ jobId }, 'delivery resumed after its worker was lost'));
    const sweep = () => this.recover.execute().catch((err: unknown) => this.logger.error({ err }, 'delivery recovery sweep failed'));
    void sweep();
    this.sweep = setInterval(sweep, DELIVERY.sweepIntervalMs);
    this.sweep.unref();
  }

  /** Lets the deliveries under way finish (Nest calls this before the database pool closes). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweep);
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private async process(job: Job<Scheduler.DeliveryJob>): Promise<string> {
    if (job.name !== Scheduler.DELIVERY_JOB) throw new Error(`Unknown job ${job.name}`);
    return this.deliver.execute(Scheduler.deliveryJobSchema.parse(job.data));
  }
}

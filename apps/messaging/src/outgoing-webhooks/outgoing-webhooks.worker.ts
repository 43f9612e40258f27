import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { DeliverOutgoingWebhook } from './deliver-outgoing-webhook.use-case';
import { OUTGOING_WEBHOOKS } from './outgoing-webhooks.settings';


/**
 * The BullMQ adapter of DeliverOutgoingWebhook, in every messaging replica: a retryable failure
 * (timeout, connection) is thrown back to BullMQ until the last attempt, which the use case
 * answers itself (the bot says it is unavailable, the owner is told).
 */
@Injectable()
export class OutgoingWebhooksWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Messaging.OutgoingWebhookJob>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly deliver: DeliverOutgoingWebhook,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Messaging.OUTGOING_WEBHOOKS_QUEUE, (job) => traceJob(Messaging.OUTGOING_WEBHOOKS_QUEUE, job, () => this.process(job)), {
      connection,
      prefix,
      concurrency: OUTGOING_WEBHOOKS.concurrency,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'outgoing webhooks worker'));
    this.worker.on('failed', (job, err) => this.logger.warn({ err, jobId: job?.id, attempt: job?.attemptsMade }, 'outgoing webhook attempt failed'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private async process(job: Job<Messaging.OutgoingWebhookJob>): Promise<void> {
    if (job.name !== Messaging.OUTGOING_WEBHOOK_JOB) throw new Error(`Unknown job ${job.name}`);
    const data = Messaging.outgoingWebhookJobSchema.parse(job.data);
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await this.deliver.execute(data, { finalAttempt, requestId: `outgoing-webhook-${job.id}-${job.attemptsMade}` });
  }
}

import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { MissedMessageEmailsRepository } from '../data/missed-message-emails.repository';
import { NOTIFICATION_WORKERS } from '../notifications/notification.settings';
import { MissedMessageEmails } from './missed-message-emails';
import { SendMissedMessageEmail } from './send-missed-message-email.use-case';

/**
 * The BullMQ adapter of SendMissedMessageEmail, in every push replica, and the sweep at start
 * that re-adds the job of every batch still waiting in Postgres (Redis flushed loses nothing).
 */
@Injectable()
export class MissedMessageEmailWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Push.MissedMessageEmailJob>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly send: SendMissedMessageEmail,
    private readonly batches: MissedMessageEmailsRepository,
    private readonly emails: MissedMessageEmails,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(
      Push.MISSED_MESSAGE_EMAIL_QUEUE,
      (job) => traceJob(Push.MISSED_MESSAGE_EMAIL_QUEUE, job, () => this.process(job)),
      { connection, prefix, concurrency: NOTIFICATION_WORKERS.emailConcurrency },
    );
    this.worker.on('error', (err) => this.logger.error({ err }, 'missed-message email worker'));
    this.worker.on('failed', (job, err) => this.logger.warn({ err, jobId: job?.id, attempt: job?.attemptsMade }, 'missed-message email attempt failed'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
    void this.batches
      .dueTimes()
      .then((batches) => this.emails.enqueue(batches))
      .catch((err: unknown) => this.logger.error({ err }, 'missed-message email sweep failed'));
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private process(job: Job<Push.MissedMessageEmailJob>) {
    if (job.name !== Push.MISSED_MESSAGE_EMAIL_JOB) throw new Error(`Unknown job ${job.name}`);
    return this.send.execute(Push.missedMessageEmailJobSchema.parse(job.data).userId);
  }
}

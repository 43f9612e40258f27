import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { bullmqConnection, instrumentWorker } from './bullmq';
import { APP_CONFIG, type AppConfig } from './config';
import { LOGGER } from './logger';
import { Mailer, type Mail } from './mailer';
import { MetricsService } from './metrics';

/** The BullMQ queue of outgoing mail. */
export const OUTGOING_MAIL_QUEUE = 'outgoing-mail';

/**
 * Outgoing mail through a queue with retries, as Zulip's email_senders worker: the request that
 * causes a mail only queues it, so an SMTP server that refuses or is down never fails that
 * request; the worker (MailWorker, in the same process) sends it, retried with exponential
 * backoff (MAIL_ATTEMPTS, MAIL_BACKOFF_MS), and a mail that fails every attempt is logged and
 * kept among the queue's failed jobs for a week.
 */
@Injectable()
export class MailQueue implements OnApplicationShutdown {
  private readonly queue: Queue<Mail>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { connection, prefix } = bullmqConnection(config);
    this.queue = new Queue(OUTGOING_MAIL_QUEUE, { connection, prefix });
    this.queue.on('error', () => undefined); // the worker logs Redis trouble
  }

  async send(mail: Mail): Promise<void> {
    await this.sendAll([mail]);
  }

  /** Queues many at once: one round trip to Redis however many (a hundred invitations). */
  async sendAll(mails: Mail[]): Promise<void> {
    if (mails.length === 0) return;
    const opts = {
      attempts: this.config.MAIL_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.MAIL_BACKOFF_MS },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 86400 },
    };
    await this.queue.addBulk(mails.map((data) => ({ name: 'mail', data, opts })));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

/** Sends the queued mail (see MailQueue). */
@Injectable()
export class MailWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker<Mail>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    private readonly mailer: Mailer,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(OUTGOING_MAIL_QUEUE, (job: Job<Mail>) => this.mailer.send(job.data), { connection, prefix, concurrency: 4 });
    this.worker.on('error', (err) => this.logger.error({ err }, 'outgoing mail worker'));
    this.worker.on('failed', (job, err) => {
      const last = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      this.logger[last ? 'error' : 'warn']({ err, to: job?.data.to, subject: job?.data.subject, attempt: job?.attemptsMade }, last ? 'mail not sent, after every attempt' : 'mail not sent; will retry');
    });
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }
}

import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, withTraceData, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';

/**
 * The mobile pushes to send: one job per message (every device of every notified user in one
 * relay request) and one per removal. Retried with exponential backoff; a job that fails every
 * attempt stays in the queue's failed set (nothing is lost), and is logged.
 */
@Injectable()
export class MobilePushQueue implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Push.PushMessageJob | Push.PushRemoveJob>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Push.MOBILE_PUSH_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'mobile push queue'));
  }

  private get retries() {
    return {
      attempts: this.config.PUSH_NOTIFY_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.PUSH_NOTIFY_BACKOFF_MS },
      removeOnComplete: { age: 3600 },
      removeOnFail: false,
    };
  }

  /** One job per message (its id the message's, so a second decision adds nothing). */
  async pushMessages(jobs: Push.PushMessageJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.addBulk(jobs.map((job) => ({ name: Push.PUSH_MESSAGE_JOB, data: withTraceData(job), opts: { jobId: Push.pushMessageJobId(job.messageId), ...this.retries } })));
  }

  async removal(job: Push.PushRemoveJob): Promise<void> {
    await this.queue.add(Push.PUSH_REMOVE_JOB, withTraceData(job), this.retries);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}

import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { MissedMessageEmailsRepository } from '../data/missed-message-emails.repository';

/**
 * Schedules missed-message emails (Zulip's ScheduledMessageNotificationEmail and its
 * missedmessage_emails worker): each message waits in its recipient's batch, in Postgres, and a
 * delayed job per batch fires when it is due (its id is the user's and the due time, so adding
 * it again is a no-op). A batch is due the recipient's `email_notifications_batching_period_seconds`
 * after its first message (EMAIL_BATCHING_PERIOD_OVERRIDE_SECONDS, when set, for everyone).
 */
@Injectable()
export class MissedMessageEmails implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Push.MissedMessageEmailJob>;

  constructor(
    private readonly repository: MissedMessageEmailsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Push.MISSED_MESSAGE_EMAIL_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'missed-message email queue'));
  }

  /** Adds messages to their recipients' batches, and each batch's delayed job. */
  async schedule(entries: { realmId: number; messageId: number; userId: number; trigger: string; batchingSeconds: number }[]): Promise<void> {
    const now = Date.now();
    const override = this.config.EMAIL_BATCHING_PERIOD_OVERRIDE_SECONDS;
    const due = await this.repository.add(
      entries.map(({ batchingSeconds, ...entry }) => ({ ...entry, dueAt: new Date(now + (override > 0 ? override : batchingSeconds) * 1000) })),
    );
    await this.enqueue(due);
  }

  /** Delayed jobs for these batches (again: the sweep at start re-adds what Redis lost). */
  async enqueue(batches: { userId: number; dueAt: Date }[]): Promise<void> {
    const now = Date.now();
    for (let start = 0; start < batches.length; start += 500) {
      await this.queue.addBulk(
        batches.slice(start, start + 500).map(({ userId, dueAt }) => ({
          name: Push.MISSED_MESSAGE_EMAIL_JOB,
          data: { userId },
          opts: {
            jobId: Push.missedMessageEmailJobId(userId, dueAt.getTime()),
            delay: Math.max(0, dueAt.getTime() - now),
            attempts: 5,
            backoff: { type: 'exponential', delay: 2000 },
            removeOnComplete: true,
            removeOnFail: false,
          },
        })),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}

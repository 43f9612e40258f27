import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Scheduler } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, withTraceData, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { DELIVERY, deliveryJobId } from './delivery.settings';

type Pending = { id: number; version: number; scheduledAt: Date };

/**
 * The delayed jobs of deliveries, one per scheduled message version (BullMQ keeps one job per
 * id, so adding a job that exists already is a no-op: the recovery sweep relies on it).
 */
@Injectable()
export class DeliveryQueue implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Scheduler.DeliveryJob>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Scheduler.DELIVERY_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'delivery queue'));
  }

  /** Queues the delivery of these scheduled messages at their time (at once when overdue). */
  async schedule(pending: Pending[]): Promise<void> {
    const now = Date.now();
    for (let start = 0; start < pending.length; start += 500) {
      await this.queue.addBulk(
        pending.slice(start, start + 500).map(({ id, version, scheduledAt }) => ({
          name: Scheduler.DELIVERY_JOB,
          data: withTraceData({ id, version }),
          opts: {
            jobId: deliveryJobId(id, version),
            delay: Math.max(0, scheduledAt.getTime() - now),
            removeOnComplete: true,
            removeOnFail: true,
            attempts: DELIVERY.attempts,
            backoff: { type: 'exponential', delay: 500 },
          },
        })),
      );
    }
  }

  /** Drops a version's job if it is still waiting (a running one finds itself stale). */
  async cancel(id: number, version: number): Promise<void> {
    await this.queue.remove(deliveryJobId(id, version)).catch((err: unknown) => this.logger.warn({ err, id }, 'delivery job not removed'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}

import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Uploads } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, withTraceData, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';

/** Queues the writing of an export's archive (one job per export, id `realm-export-<id>`), for the realm-export worker. */
@Injectable()
export class RealmExportQueue implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Uploads.RealmExportJob>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Uploads.REALM_EXPORT_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'realm export queue'));
  }

  async add(job: Uploads.RealmExportJob): Promise<void> {
    await this.queue.add(Uploads.REALM_EXPORT_JOB, withTraceData(job), {
      jobId: `realm-export-${job.exportId}`,
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600 },
      attempts: 1,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}

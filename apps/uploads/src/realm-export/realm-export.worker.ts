import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Uploads } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, bullmqConnection, instrumentWorker, traceJob, type AppConfig } from '@teamchat/platform';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { REALM_EXPORT } from './realm-export.settings';
import { WriteRealmExport } from './write-realm-export.use-case';

/**
 * The BullMQ adapter of WriteRealmExport, in every uploads replica (BullMQ queue
 * `realm-export`), one export at a time per replica. A replica that dies mid-way loses its
 * lock; BullMQ hands the job to another, which writes the archive again from the start.
 */
@Injectable()
export class RealmExportWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker<Uploads.RealmExportJob>;
  private closeMetrics?: () => Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly write: WriteRealmExport,
  ) {}

  onApplicationBootstrap(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.worker = new Worker(Uploads.REALM_EXPORT_QUEUE, (job) => traceJob(Uploads.REALM_EXPORT_QUEUE, job, () => this.process(job)), {
      connection,
      prefix,
      concurrency: REALM_EXPORT.concurrency,
      lockDuration: 30_000,
      maxStalledCount: 2,
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'realm export worker'));
    this.worker.on('failed', (job, err) => this.logger.error({ err, jobId: job?.id }, 'realm export job failed'));
    this.closeMetrics = instrumentWorker(this.worker, this.metrics, this.config);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.closeMetrics?.();
  }

  private async process(job: Job<Uploads.RealmExportJob>): Promise<void> {
    if (job.name !== Uploads.REALM_EXPORT_JOB) throw new Error(`Unknown job ${job.name}`);
    await this.write.execute(Uploads.realmExportJobSchema.parse(job.data));
  }
}

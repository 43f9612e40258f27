import { Queue, type ConnectionOptions, type Job, type Worker } from 'bullmq';
import type { AppConfig } from './config';
import { createRedisClient } from './redis';
import type { MetricsService } from './metrics';

/** BullMQ's key prefix: REDIS_KEY_PREFIX, then `{bull}` (every queue's keys in one hash slot). */
export const bullmqPrefix = (config: Pick<AppConfig, 'REDIS_KEY_PREFIX'>): string => `${config.REDIS_KEY_PREFIX}{bull}`;

/** What BullMQ's connections are made from: a node's URL, or a cluster's nodes (REDIS_CLUSTER_NODES). */
export type BullmqSettings = Pick<AppConfig, 'REDIS_URL' | 'REDIS_KEY_PREFIX'> & Partial<Pick<AppConfig, 'REDIS_CLUSTER_NODES'>>;

/**
 * BullMQ wants connections of its own (blocking reads, `maxRetriesPerRequest: null`, no ioredis
 * key prefix); its keys are namespaced by the deployment's REDIS_KEY_PREFIX instead, in a hash
 * tag (`teamchat:{bull}`): BullMQ's scripts touch many keys of a queue at once, which a Redis
 * Cluster runs only when they share a slot. On one node the options are the URL's, and each
 * queue or worker connects by itself; on a cluster BullMQ needs a client, so each call makes one
 * (a worker duplicates it for its blocking reads; the shared one closes with the process).
 */
export function bullmqConnection(config: BullmqSettings): {
  connection: ConnectionOptions;
  prefix: string;
} {
  const prefix = bullmqPrefix(config);
  if (config.REDIS_CLUSTER_NODES) {
    const cluster = createRedisClient({ REDIS_URL: config.REDIS_URL, REDIS_CLUSTER_NODES: config.REDIS_CLUSTER_NODES }, { maxRetriesPerRequest: null });
    return { connection: cluster, prefix };
  }
  const url = new URL(config.REDIS_URL);
  const db = Number(url.pathname.replace(/^\//, '') || 0);
  return {
    connection: {
      host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: Number(url.port || 6379),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      db: Number.isInteger(db) ? db : 0,
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
    },
    prefix,
  };
}

/** The job states bullmq_queue_jobs reports; `wait` and `prioritized` are what workers have yet to take. */
export const QUEUE_DEPTH_STATES = ['wait', 'prioritized', 'delayed', 'active', 'failed'] as const;

/**
 * Metrics of a BullMQ worker: how long each job waited once due and how long it ran (observed
 * from the worker's own events), and the queue's depth by state (read only when /metrics is
 * scraped). Returns what to call on shutdown, after the worker has closed.
 */
export function instrumentWorker(
  worker: Worker,
  metrics: MetricsService,
  config: BullmqSettings,
): () => Promise<void> {
  const queue = worker.name;
  worker.on('active', (job) => {
    if (job.processedOn) metrics.jobWait.observe({ queue }, Math.max(0, job.processedOn - job.timestamp - (job.delay ?? 0)) / 1000);
  });
  const ran = (outcome: string) => (job: Job | undefined) => {
    if (job?.processedOn && job.finishedOn) metrics.jobDuration.observe({ queue, outcome }, Math.max(0, job.finishedOn - job.processedOn) / 1000);
  };
  worker.on('completed', ran('completed'));
  worker.on('failed', ran('failed'));
  const { connection, prefix } = bullmqConnection(config);
  const counter = new Queue(queue, { connection, prefix });
  counter.on('error', () => undefined); // the worker logs Redis trouble already
  metrics.watchQueue(queue, () => counter.getJobCounts(...QUEUE_DEPTH_STATES));
  return () => counter.close().catch(() => undefined);
}

import type { AppConfig } from '@teamchat/platform';

/**
 * How topic deletion runs. Batches are Zulip's (RETENTION_STREAM_MESSAGE_BATCH_SIZE). Since
 * every batch re-selects what still exists, running a job twice is harmless, so the lock can
 * be short: a worker that died is noticed within about lockDuration + stalledInterval.
 */
export const TOPIC_DELETION = {
  batchSize: 100,
  /** Topics deleted at once by one replica. */
  concurrency: 4,
  lockDurationMs: 5000,
  stalledIntervalMs: 2500,
  /** A job that keeps losing its worker is still resumed, up to this many times. */
  maxStalledCount: 20,
  /** Failed attempts (a database fault, say) before the job is dropped; a new request re-queues it. */
  attempts: 3,
  /** How often a waiting request double-checks the job, should a completion event be missed. */
  pollMs: 1000,
  /** A batch's transaction may wait long for the rows and the channel it locks, and run long. */
  batchTransaction: { maxWait: 10_000, timeout: 60_000 },
} as const;

/**
 * How long POST /streams/{id}/delete_topic waits for its job before answering
 * `complete: false`: Zulip's 50 s, but always inside the gateway's NATS request timeout
 * (less 2 s for everything around the wait), so the reply is never lost to that timeout.
 */
export const waitBudgetMs = (config: Pick<AppConfig, 'NATS_REQUEST_TIMEOUT_MS'>): number =>
  Math.max(250, Math.min(50_000, config.NATS_REQUEST_TIMEOUT_MS - 2000));

/** Shared with the scheduler's delivery queue: see libs/platform/src/bullmq.ts. */
export { bullmqConnection } from '@teamchat/platform';

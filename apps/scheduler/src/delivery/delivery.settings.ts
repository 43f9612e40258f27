/**
 * How scheduled messages are delivered. A delivery is one send through messaging, keyed by the
 * scheduled message, so running a job twice is harmless and the lock can be short: a worker that
 * died is noticed within about lockDuration + stalledInterval, and its job runs again.
 */
export const DELIVERY = {
  /** Deliveries under way at once in one replica (each mostly waits on messaging). */
  concurrency: 64,
  lockDurationMs: 5000,
  stalledIntervalMs: 2500,
  maxStalledCount: 20,
  /** Attempts for a fault outside the message's own rules (messaging unreachable, say); the sweep re-queues after them. */
  attempts: 5,
  /** How often every replica re-creates any missing job from Postgres (and once at start). */
  sweepIntervalMs: 30_000,
  /** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: later than this, the message fails instead. */
  lateCutoffMs: 10 * 60_000,
} as const;

/** A job per scheduled message version: an edit's job has a new id, and the old one knows itself stale. */
export const deliveryJobId = (id: number, version: number): string => `sm-${id}-v${version}`;

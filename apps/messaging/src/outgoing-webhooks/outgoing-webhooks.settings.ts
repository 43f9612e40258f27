/** The outgoing webhook worker's settings (read by deploy/scaling-checks.ts for its ScaledObject). */
export const OUTGOING_WEBHOOKS = {
  /** Calls in flight per messaging replica: each mostly waits on a bot's server. */
  concurrency: 16,
} as const;

/** The realm export worker's settings (read by deploy/scaling-checks.ts for its ScaledObject). */
export const REALM_EXPORT = {
  /** One archive at a time per uploads replica: each reads the whole organization. */
  concurrency: 1,
} as const;

/**
 * How many jobs one push replica runs at once per queue (also the per-replica target of the
 * push ScaledObject's queue triggers, k8s/keda.yaml). Decisions are a few reads each; pushes and
 * emails mostly wait on the relay or the mail server.
 */
export const NOTIFICATION_WORKERS = {
  decisionConcurrency: 8,
  pushConcurrency: 16,
  emailConcurrency: 8,
} as const;

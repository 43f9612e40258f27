/** The fan-out partition of an organization. */
export const partitionOf = (realmId: number, partitions: number) => realmId % partitions;

/**
 * The event queues' Redis keys, all under `<REDIS_KEY_PREFIX>eq:`. Everything the fan-out of one
 * partition touches together carries the partition's hash tag (`{p3}`), so on a Redis Cluster it
 * lives in one slot: a queue's hash and list, the organizations' indexes, their versions, public-queue
 * sets and state versions, the once-keys of the events fanned out, and the partition's lease. One APPEND
 * script can then append to every queue of a batch, checked against the lease, atomically.
 * Which partition an organization's keys are in follows from EVENT_FANOUT_PARTITIONS: changing
 * it moves organizations, and their queues are not found any more (clients register again, as
 * after BAD_EVENT_QUEUE_ID).
 */
export class EventQueueKeys {
  constructor(readonly prefix: string) {}

  /** Where the keys of partition `partition` begin; its hash tag is the braces. */
  private tagged(partition: number): string {
    return `${this.prefix}{p${partition}}:`;
  }

  /** A queue's hash: its descriptor (`d`), owner (`o`), lifespan (`l`), last id given and newest id pruned. */
  meta(partition: number, queueId: string): string {
    return `${this.tagged(partition)}q:${queueId}`;
  }

  /** A queue's list of events (JSON texts with their ids). */
  events(partition: number, queueId: string): string {
    return `${this.tagged(partition)}q:${queueId}:e`;
  }

  /** An organization's index: user id → that user's queue ids, space-separated. */
  index(partition: number, realmId: number): string {
    return `${this.tagged(partition)}r:${realmId}`;
  }

  /**
   * The organization's index version: the id of the queue registered last, set with it, so a
   * copy of the index kept in memory (see EventQueueStore.routeIndex) is known to be current.
   */
  indexVersion(partition: number, realmId: number): string {
    return `${this.tagged(partition)}iv:${realmId}`;
  }

  /** The organization's queues registered with all_public_streams. */
  publicQueues(partition: number, realmId: number): string {
    return `${this.tagged(partition)}p:${realmId}`;
  }

  /** The organization's state version (see EventQueueStore.bumpStateVersions). */
  stateVersion(partition: number, realmId: number): string {
    return `${this.tagged(partition)}sv:${realmId}`;
  }

  /** Set once an event (by its once-key) is appended, so a redelivery appends nothing. */
  done(partition: number, onceKey: string): string {
    return `${this.tagged(partition)}done:${onceKey}`;
  }

  /** The partition's fan-out lease: the holder's token. */
  lease(partition: number): string {
    return `${this.tagged(partition)}fanout-lease`;
  }

  /** The gateway replicas alive (sorted set by expiry): alone in its slot, read by itself. */
  get replicas(): string {
    return `${this.prefix}fanout-replicas`;
  }

  /** The pub/sub channel of wake-ups (a channel, not a key: PUBLISH reaches every node of a cluster). */
  get wakeChannel(): string {
    return `${this.prefix}wake`;
  }
}

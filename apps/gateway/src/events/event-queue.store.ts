import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, createRedis, type AppConfig, type RedisClient } from '@teamchat/platform';
import { ZulipError, badRequest } from '@teamchat/zulip';
import type { ChainableCommander } from 'ioredis';
import { EventQueueKeys, partitionOf } from './event-queue.keys';
import { SCRIPTS, runScript } from './event-queue.scripts';
import type { QueueDescriptor } from './queue-descriptor';

/** One client event, ready to append: a JSON object text without its `id`. */
export interface Delivery {
  queueId: string;
  event: string;
}

/**
 * One event of an appended batch: its deliveries, the key that makes it happen at most once
 * ('' for none), and the version of the organization's index its recipients' queues were read
 * from memory at (see routeIndex), which the append checks is still current.
 */
export interface BatchedEvent {
  deliveries: Delivery[];
  onceKey: string;
  index?: IndexVersion;
}

/** An organization's index version (see EventQueueKeys.indexVersion). */
export interface IndexVersion {
  realmId: number;
  version: string;
}

/** What routing reads of an organization's index: the users' queues, the all_public_streams queues, and the version when read from memory. */
export interface RouteIndex {
  queues: Map<number, string[]>;
  publicQueues: string[];
  /** Set when any of it came from memory: the append must find the index still at this version. */
  version?: IndexVersion;
}

/**
 * Where an append goes: the queues of one fan-out partition (their keys share its hash slot),
 * under the partition's lease when `token` is given.
 */
export interface AppendTarget {
  partition: number;
  token?: string;
}

/** A fan-out partition's lease (see EventFanout): appends made under it fail once it has passed to another replica. */
export interface FanoutLease extends AppendTarget {
  token: string;
}

/** An append refused because an index it was routed by changed (a queue was registered since): route again. */
export class StaleIndex extends Error {
  constructor() {
    super('an organization index the fan-out read from memory has changed');
  }
}

/** An append under a lease that is no longer held: another replica fans out now. */
export class LeaseLost extends Error {
  constructor() {
    super('the fan-out lease passed to another replica');
  }
}

/**
 * What the wake channel carries. An append: `A`, the number of texts, the texts (JSON, so
 * never a raw newline), the number of groups, a line `<text number>…` per group (the events of
 * the batch its queues got, in order), then a line `<queue id> <first event id> <group number>`
 * per queue appended to (the group's events, their ids consecutive from the first), all
 * separated by newlines (see APPEND). Queues deleted: `D ` and their ids.
 */
export const WAKE_APPENDED = 'A\n';
export const WAKE_DELETED = 'D ';

export const badEventQueue = (queueId: string): ZulipError =>
  new ZulipError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });

/**
 * Client event queues in Redis, shared by every gateway replica. A queue is a hash (its
 * descriptor, the last id given, the newest id pruned) and a list of events; it expires after
 * its lifespan unless a client polls it. Each organization has an index (user → queue ids) for
 * the fan-out, cleaned as it finds queues gone. Keys are found from the organization (its
 * partition's hash tag, see EventQueueKeys) and the queue id.
 */
@Injectable()
export class EventQueueStore implements OnApplicationShutdown {
  readonly redis: RedisClient;
  readonly keys: EventQueueKeys;
  private readonly partitions: number;
  private readonly descriptors = new Map<string, QueueDescriptor>();
  /**
   * The organizations' indexes as the fan-out last read them, by version: each user's queues
   * (undefined: none) and the all_public_streams queues once read.
   */
  private readonly indexes = new Map<number, { version: string; users: Map<number, string[] | undefined>; publicQueues?: string[] }>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = createRedis(config, '');
    this.keys = new EventQueueKeys(`${config.REDIS_KEY_PREFIX}eq:`);
    this.partitions = config.EVENT_FANOUT_PARTITIONS;
    // Scripts run by their SHA (EVALSHA): Redis neither receives nor hashes their text per call.
    for (const [name, script] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, script);
  }

  get wakeChannel(): string {
    return this.keys.wakeChannel;
  }

  /** The fan-out partition of the organization, whose hash tag its queues' keys carry. */
  partitionOf(realmId: number): number {
    return partitionOf(realmId, this.partitions);
  }

  private metaKey = (realmId: number, queueId: string) => this.keys.meta(this.partitionOf(realmId), queueId);
  private eventsKey = (realmId: number, queueId: string) => this.keys.events(this.partitionOf(realmId), queueId);
  private indexKey = (realmId: number) => this.keys.index(this.partitionOf(realmId), realmId);
  private publicKey = (realmId: number) => this.keys.publicQueues(this.partitionOf(realmId), realmId);
  private stateVersionKey = (realmId: number) => this.keys.stateVersion(this.partitionOf(realmId), realmId);
  private indexVersionKey = (realmId: number) => this.keys.indexVersion(this.partitionOf(realmId), realmId);

  /**
   * Creates the queue, and answers the organization's state version as it was then (see
   * bumpStateVersions): initial state at least that new, with the queue, misses nothing.
   */
  async create(descriptor: QueueDescriptor): Promise<number> {
    const { realmId, userId, queueId } = descriptor;
    const meta = this.metaKey(realmId, queueId);
    // The user's queues so far: the index script drops those expired, and must be given their keys.
    const entry = (await this.redis.hget(this.indexKey(realmId), String(userId))) ?? '';
    const listed = entry === '' ? [] : entry.split(' ');
    // The owner and lifespan are also kept as plain fields (`o`, `l`), copied from the
    // descriptor, so the poll script reads them without decoding JSON on every poll. Every key
    // is in the organization's partition's slot: one transaction on a cluster too.
    const transaction = this.redis.multi();
    if (descriptor.allPublicStreams) transaction.sadd(this.publicKey(descriptor.realmId), descriptor.queueId);
    transaction
      .hset(meta, { d: JSON.stringify(descriptor), o: ownerOf(descriptor.realmId, descriptor.userId), l: descriptor.lifespanSeconds, last: -1, pruned: -1 })
      .expire(meta, descriptor.lifespanSeconds);
    runScript(
      transaction,
      'eqIndexAdd',
      1 + listed.length,
      this.indexKey(realmId),
      ...listed.map((id) => this.metaKey(realmId, id)),
      userId,
      queueId,
      entry,
      ...listed,
    );
    // A new version with every queue added: the fan-out's copies of the index are stale now.
    transaction.set(this.indexVersionKey(realmId), queueId);
    const replies = (await transaction.get(this.stateVersionKey(descriptor.realmId)).exec()) ?? [];
    this.remember(descriptor);
    const [error, version] = replies[replies.length - 1] ?? [];
    if (error) throw error;
    return Number(version ?? 0);
  }

  /**
   * A change to organization-wide state that POST /register serves from a cache (its people,
   * see RegisterPeople) is being fanned out: the organizations' state versions go up, before
   * the change is appended to any queue. A queue created before the bump gets the change in
   * it; one created after reads the new version and a state that has the change.
   */
  async bumpStateVersions(realmIds: Iterable<number>): Promise<void> {
    // One command each (their keys may be in different slots); auto-pipelining sends them together.
    await Promise.all([...realmIds].map((realmId) => this.redis.incr(this.stateVersionKey(realmId))));
  }

  /** The organization's queue's descriptor, or null when it does not exist (any more). */
  private async descriptor(queueId: string, realmId: number): Promise<QueueDescriptor | null> {
    const cached = this.descriptors.get(queueId);
    if (cached) return cached;
    const text = await this.redis.hget(this.metaKey(realmId, queueId), 'd');
    if (!text) return null;
    const descriptor = JSON.parse(text) as QueueDescriptor;
    this.remember(descriptor);
    return descriptor;
  }

  /** The queue `queueId` if it exists and belongs to this user; BAD_EVENT_QUEUE_ID otherwise. */
  async ownQueue(queueId: string, realmId: number, userId: number): Promise<QueueDescriptor> {
    const descriptor = await this.descriptor(queueId, realmId);
    if (!descriptor || descriptor.realmId !== realmId || descriptor.userId !== userId || (await this.redis.exists(this.metaKey(realmId, queueId))) !== 1) {
      throw badEventQueue(queueId);
    }
    return descriptor;
  }

  /** The queues of each of these users (that may since have expired). */
  private async queuesOf(realmId: number, userIds: number[]): Promise<Map<number, string[]>> {
    const result = new Map<number, string[]>();
    if (userIds.length === 0) return result;
    const entries = await this.redis.hmget(this.indexKey(realmId), ...userIds.map(String));
    userIds.forEach((userId, index) => {
      const entry = entries[index];
      if (entry) result.set(userId, entry.split(' '));
    });
    return result;
  }

  /**
   * The fan-out's read of the index: these users' queues and, with `withPublic`, the
   * all_public_streams queues (any may since have expired). From memory when it holds them all,
   * with the version the append then checks (an append refused as stale drops the copy, and the
   * event is routed again); otherwise read from Redis in one round trip, version included, and
   * kept. A read from Redis needs no check: a queue registered after it was registered after
   * the event being routed was published, so the event is in that queue's initial state.
   */
  async routeIndex(realmId: number, userIds: number[], withPublic: boolean): Promise<RouteIndex> {
    const cached = this.indexes.get(realmId);
    if (cached && (!withPublic || cached.publicQueues) && userIds.every((userId) => cached.users.has(userId))) {
      const queues = new Map<number, string[]>();
      for (const userId of userIds) {
        const queueIds = cached.users.get(userId);
        if (queueIds) queues.set(userId, queueIds);
      }
      return { queues, publicQueues: withPublic ? cached.publicQueues! : [], version: { realmId, version: cached.version } };
    }
    const transaction = this.redis.multi().get(this.indexVersionKey(realmId));
    if (userIds.length > 0) transaction.hmget(this.indexKey(realmId), ...userIds.map(String));
    if (withPublic) transaction.smembers(this.publicKey(realmId));
    const replies = (await transaction.exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    const version = (replies[0][1] as string | null) ?? '';
    const entries = userIds.length > 0 ? (replies[1][1] as (string | null)[]) : [];
    const publicQueues = withPublic ? (replies[replies.length - 1][1] as string[]) : [];
    let kept = this.indexes.get(realmId);
    if (!kept || kept.version !== version) {
      if (!kept && this.indexes.size >= INDEX_CACHE_REALMS) this.indexes.clear();
      this.indexes.set(realmId, (kept = { version, users: new Map() }));
    }
    const queues = new Map<number, string[]>();
    userIds.forEach((userId, index) => {
      const queueIds = entries[index] ? entries[index].split(' ') : undefined;
      kept.users.set(userId, queueIds);
      if (queueIds) queues.set(userId, queueIds);
    });
    if (withPublic) kept.publicQueues = publicQueues;
    return { queues, publicQueues };
  }

  /**
   * Descriptors of many of the organization's queues at once (cache first, then one pipeline,
   * in one slot); missing ones are left out, and a Redis failure throws.
   */
  async descriptorsOf(realmId: number, queueIds: string[]): Promise<Map<string, QueueDescriptor>> {
    const result = new Map<string, QueueDescriptor>();
    const missing: string[] = [];
    for (const queueId of queueIds) {
      const cached = this.descriptors.get(queueId);
      if (cached) result.set(queueId, cached);
      else missing.push(queueId);
    }
    if (missing.length > 0) {
      const pipeline = this.redis.pipeline();
      for (const queueId of missing) pipeline.hget(this.metaKey(realmId, queueId), 'd');
      const replies = (await pipeline.exec()) ?? [];
      missing.forEach((queueId, index) => {
        const [error, text] = replies[index] ?? [];
        // A failed read is not a missing queue: fail, so the event is retried rather than
        // delivered to the queues that happened to be cached.
        if (error) throw error;
        if (typeof text !== 'string') return;
        const descriptor = JSON.parse(text) as QueueDescriptor;
        this.remember(descriptor);
        result.set(queueId, descriptor);
      });
    }
    return result;
  }

  /** Appends one event's deliveries in one atomic step (see appendBatch). */
  append(deliveries: Delivery[], target: AppendTarget, onceKey = ''): Promise<string[]> {
    return this.appendBatch([{ deliveries, onceKey }], target);
  }

  /**
   * Appends a batch of events in one atomic step, each queue getting its events in order with
   * one wake-up for all of them. `onceKey` names the domain event being fanned out, so a
   * redelivery of it appends nothing. Every queue is of the target's partition (the fan-out of a
   * partition delivers to its organizations' queues only): the script's keys share a slot.
   * Under a lease (`target.token`) nothing is appended once another replica holds it. Queues
   * found gone are dropped from their user's set. Returns the queues appended to.
   */
  async appendBatch(batch: BatchedEvent[], target: AppendTarget): Promise<string[]> {
    // An event with no recipient queue appends nothing: no script, no once-key to remember;
    // unless it was routed from a copy of the index, which the script must still find current
    // (a queue registered since may be one it should reach).
    const events = batch.filter((event) => event.deliveries.length > 0 || event.index);
    if (events.length === 0) return [];
    // Called in order, sent together: Redis runs the scripts in this order.
    const outcomes = await Promise.all(scriptSized(events).map((part) => this.appendScript(part, target)));
    const appended = outcomes.flatMap((outcome) => outcome[0]);
    const gone = outcomes.flatMap((outcome) => outcome[1]);
    if (gone.length > 0) {
      // The gone queues' organizations are the target partition's: one slot.
      const pipeline = this.redis.pipeline();
      for (const queueId of gone) {
        const owner = this.descriptors.get(queueId);
        if (owner) this.unindex(pipeline, owner);
        // Unknown owner: forget the partition's index copies, rather than meet the queue again.
        this.forgetIndexed(queueId, owner);
        this.descriptors.delete(queueId);
      }
      await pipeline.exec();
    }
    return appended;
  }

  /** Drops a queue found gone from the copy of its organization's index (without its owner, every copy). */
  private forgetIndexed(queueId: string, owner: Pick<QueueDescriptor, 'realmId' | 'userId'> | undefined): void {
    if (!owner) return this.indexes.clear();
    const kept = this.indexes.get(owner.realmId);
    if (!kept) return;
    const queueIds = kept.users.get(owner.userId)?.filter((id) => id !== queueId);
    if (kept.users.has(owner.userId)) kept.users.set(owner.userId, queueIds && queueIds.length > 0 ? queueIds : undefined);
    if (kept.publicQueues) kept.publicQueues = kept.publicQueues.filter((id) => id !== queueId);
  }

  /** One APPEND script (see event-queue.scripts.ts for its arguments): the queues appended to, and those gone. */
  private async appendScript(events: BatchedEvent[], { partition, token }: AppendTarget): Promise<[string[], string[]]> {
    // Each distinct text once: most recipients of a message get the same one. Each queue's keys
    // once, numbered as declared, with its (event number, text number) pairs in order.
    const texts = new Map<string, number>();
    const pairsOf = new Map<string, number[]>();
    const onceKeys: string[] = [];
    const onceNumbers: string[] = [];
    events.forEach(({ deliveries, onceKey }, index) => {
      // An event that reaches nobody (here only for its index check) has nothing to do once.
      const once = deliveries.length > 0 ? onceKey : '';
      if (once) onceKeys.push(this.keys.done(partition, once));
      onceNumbers.push(once ? String(onceKeys.length) : '0');
      for (const { queueId, event } of deliveries) {
        let text = texts.get(event);
        if (text === undefined) texts.set(event, (text = texts.size + 1));
        let pairs = pairsOf.get(queueId);
        if (pairs === undefined) pairsOf.set(queueId, (pairs = []));
        pairs.push(index + 1, text);
      }
    });
    // Queues given the same events share a group (a message's recipients mostly do).
    const groups = new Map<string, number>();
    const groupArgs: string[] = [];
    const queueGroups: string[] = [];
    for (const pairs of pairsOf.values()) {
      const key = pairs.join(' ');
      let group = groups.get(key);
      if (group === undefined) {
        groups.set(key, (group = groups.size + 1));
        groupArgs.push(String(pairs.length / 2), ...pairs.map(String));
      }
      queueGroups.push(String(group));
    }
    // The index versions the events were routed at (each organization's once per version).
    const checks = new Map<string, IndexVersion>();
    for (const { index } of events) if (index) checks.set(`${index.realmId} ${index.version}`, index);
    const queueKeys = [...pairsOf.keys()].flatMap((queueId) => [this.keys.meta(partition, queueId), this.keys.events(partition, queueId)]);
    const checkKeys = [...checks.values()].map(({ realmId }) => this.keys.indexVersion(partition, realmId));
    const keys = [this.keys.lease(partition), ...queueKeys, ...onceKeys, ...checkKeys];
    const args = [
      token ?? '',
      this.wakeChannel,
      String(pairsOf.size),
      ...pairsOf.keys(),
      String(texts.size),
      ...texts.keys(),
      String(events.length),
      ...onceNumbers,
      String(groups.size),
      ...groupArgs,
      ...queueGroups,
      ...[...checks.values()].map(({ version }) => version),
      String(checks.size),
    ];
    const outcome = (await runScript(this.redis, 'eqAppend', keys.length, ...keys, ...args)) as [string[], string[]] | 'fenced' | 'stale';
    if (outcome === 'fenced') throw new LeaseLost();
    if (outcome === 'stale') {
      for (const { realmId } of checks.values()) this.indexes.delete(realmId);
      throw new StaleIndex();
    }
    return outcome;
  }

  /**
   * The caller's pending events, as the JSON texts stored (served as they are), after
   * acknowledging `lastEventId` (BAD_EVENT_QUEUE_ID when the queue is unknown, gone or someone
   * else's), the newest id the queue has given and its lifespan. Restarts the idle timer; with `holdSeconds`
   * and nothing pending, holds it off for a poll that is about to wait.
   */
  async take(queueId: string, realmId: number, userId: number, lastEventId: number, holdSeconds = 0): Promise<{ events: string[]; last: number; lifespanSeconds: number }> {
    const [outcome, detail, last, lifespanSeconds] = (await runScript(
      this.redis,
      'eqTake',
      this.metaKey(realmId, queueId),
      this.eventsKey(realmId, queueId),
      ownerOf(realmId, userId),
      lastEventId,
      holdSeconds > 0 ? '1' : '0',
      Math.ceil(holdSeconds),
    )) as [string, (string | string[])?, number?, number?];
    if (outcome === 'gone') throw badEventQueue(queueId);
    if (outcome === 'pruned') throw badRequest(`An event newer than ${detail as string} has already been pruned!`);
    if (outcome === 'unknown') throw badRequest(`Event ${detail as string} was not in this queue`);
    return { events: detail as string[], last: last as number, lifespanSeconds: lifespanSeconds as number };
  }

  /**
   * Writes back acknowledgements answered from memory, all in one round trip: each queue drops
   * the events up to `through` and restarts its idle timer (held off by `holdSeconds` for a poll
   * that waits). Returns the queues found gone.
   */
  async acknowledge(acks: { queueId: string; realmId: number; through: number; holdSeconds: number }[]): Promise<string[]> {
    // One script per partition (its queues' keys share a slot) and ACKS_PER_SCRIPT queues, where
    // one per queue cost a command, a promise and a script run for every poll answered.
    const byPartition = new Map<number, typeof acks>();
    for (const ack of acks) {
      const partition = this.partitionOf(ack.realmId);
      const group = byPartition.get(partition);
      if (group) group.push(ack);
      else byPartition.set(partition, [ack]);
    }
    const parts = [...byPartition.values()].flatMap((group) =>
      Array.from({ length: Math.ceil(group.length / ACKS_PER_SCRIPT) }, (_, index) => group.slice(index * ACKS_PER_SCRIPT, (index + 1) * ACKS_PER_SCRIPT)),
    );
    const answers = await Promise.all(
      parts.map((part) => {
        const keys = part.flatMap(({ queueId, realmId }) => [this.metaKey(realmId, queueId), this.eventsKey(realmId, queueId)]);
        const args = part.flatMap(({ through, holdSeconds }) => [through, Math.ceil(holdSeconds)]);
        return runScript(this.redis, 'eqAcknowledge', keys.length, ...keys, ...args) as Promise<number[]>;
      }),
    );
    return parts.flatMap((part, index) => part.filter((_, at) => answers[index][at] === 0).map((ack) => ack.queueId));
  }

  async delete(descriptor: QueueDescriptor): Promise<void> {
    const transaction = this.redis.multi();
    this.unindex(transaction, descriptor);
    await transaction
      .del(this.metaKey(descriptor.realmId, descriptor.queueId), this.eventsKey(descriptor.realmId, descriptor.queueId))
      .publish(this.wakeChannel, `${WAKE_DELETED}${descriptor.queueId}`)
      .exec();
    this.forgetIndexed(descriptor.queueId, descriptor);
    this.descriptors.delete(descriptor.queueId);
  }

  /**
   * Deletes every queue of the user (a deactivated account's, as Zulip does): polls waiting on
   * them wake and find their queue gone (BAD_EVENT_QUEUE_ID). Returns how many there were.
   */
  async deleteQueuesOf(realmId: number, userId: number): Promise<number> {
    const queueIds = (await this.queuesOf(realmId, [userId])).get(userId) ?? [];
    if (queueIds.length === 0) return 0;
    // The index, the public set and the queues are all in the organization's partition's slot.
    const transaction = this.redis.multi().hdel(this.indexKey(realmId), String(userId));
    // Kept in the public set or not, whatever the descriptor says (or whether it is still there).
    transaction.srem(this.publicKey(realmId), ...queueIds);
    for (const queueId of queueIds) {
      transaction.del(this.metaKey(realmId, queueId), this.eventsKey(realmId, queueId));
      this.forgetIndexed(queueId, { realmId, userId });
      this.descriptors.delete(queueId);
    }
    await transaction.publish(this.wakeChannel, `${WAKE_DELETED}${queueIds.join(' ')}`).exec();
    return queueIds.length;
  }

  private leaseKey(partition: number): string {
    return this.keys.lease(partition);
  }

  private get replicasKey(): string {
    return this.keys.replicas;
  }

  /** Partition `partition`'s lease for `ms` milliseconds if nobody holds it: only its holder fans it out. */
  async acquireLease(partition: number, ms: number): Promise<FanoutLease | null> {
    // The holder's process id first: operators (and tests) can tell which replica fans out.
    const token = `${process.pid}:${randomUUID()}`;
    return (await this.redis.set(this.leaseKey(partition), token, 'PX', ms, 'NX')) === 'OK' ? { partition, token } : null;
  }

  /** Whether the lease is still ours, for `ms` milliseconds more. */
  async renewLease(lease: FanoutLease, ms: number): Promise<boolean> {
    return (await runScript(this.redis, 'eqLeaseRenew', this.leaseKey(lease.partition), lease.token, ms)) === 1;
  }

  async releaseLease(lease: FanoutLease): Promise<void> {
    await runScript(this.redis, 'eqLeaseRelease', this.leaseKey(lease.partition), lease.token);
  }

  /** Who holds each partition's lease (its token, process id first), or null. */
  async leaseHolders(partitions: number): Promise<(string | null)[]> {
    // One GET each (every lease is in its partition's slot); auto-pipelining sends them together.
    return Promise.all(Array.from({ length: partitions }, (_, partition) => this.redis.get(this.leaseKey(partition))));
  }

  /**
   * Says this replica is alive for `ms` more milliseconds and answers how many replicas are
   * (the fan-out spreads its partitions over them).
   */
  async replicasAlive(replica: string, ms: number): Promise<number> {
    const now = Date.now();
    const [, , [error, count] = []] =
      (await this.redis.multi().zadd(this.replicasKey, now + ms, replica).zremrangebyscore(this.replicasKey, '-inf', now).zcard(this.replicasKey).exec()) ?? [];
    if (error) throw error;
    return Number(count);
  }

  /** This replica is leaving: the others share its partitions out at once. */
  async replicaGone(replica: string): Promise<void> {
    await this.redis.zrem(this.replicasKey, replica);
  }

  /** Drops a queue from the indexes the fan-out reads. */
  private unindex(commands: ChainableCommander, queue: QueueDescriptor): void {
    runScript(commands, 'eqIndexRemove', this.indexKey(queue.realmId), queue.userId, queue.queueId);
    if (queue.allPublicStreams) commands.srem(this.publicKey(queue.realmId), queue.queueId);
  }

  private remember(descriptor: QueueDescriptor): void {
    // A small bounded cache: descriptors never change, so only memory limits it.
    if (this.descriptors.size >= DESCRIPTOR_CACHE_SIZE) {
      const oldest = this.descriptors.keys().next().value;
      if (oldest !== undefined) this.descriptors.delete(oldest);
    }
    this.descriptors.set(descriptor.queueId, descriptor);
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * The most arguments one APPEND script takes (every one is on the stack of the call that sends
 * it, and Redis does nothing else while the script runs), counted at worst, as if no two queues
 * shared a group: 2 per delivery (its pair in its queue's group), 1 per distinct text,
 * QUEUE_ARGUMENTS per distinct queue, at most 5 per event (its once-key and its number, its
 * index version's key and value).
 */
const SCRIPT_ARGUMENTS = 40_000;
/** A queue's arguments: its two keys, its id, its group's number and (at worst a group of its own) the group's length. */
const QUEUE_ARGUMENTS = 5;

/**
 * A batch cut into scripts of at most SCRIPT_ARGUMENTS arguments, in order, each event whole in
 * one. An event too large for one script gets scripts of its own, cut from its start, each part
 * under its own once-key: cut the same way when it is redelivered, each part happens at most once.
 */
function scriptSized(events: BatchedEvent[]): BatchedEvent[][] {
  const scripts: BatchedEvent[][] = [];
  let current: BatchedEvent[] = [];
  let texts = new Set<string>();
  let queues = new Set<string>();
  let used = 0;
  const flush = () => {
    if (current.length > 0) scripts.push(current);
    current = [];
    texts = new Set();
    queues = new Set();
    used = 0;
  };
  /** What the event adds to the script so far: its deliveries, and the texts and queues new to it. */
  const costIn = (ownTexts: Set<string>, ownQueues: Set<string>) =>
    [...ownTexts].filter((text) => !texts.has(text)).length + QUEUE_ARGUMENTS * [...ownQueues].filter((queue) => !queues.has(queue)).length;
  for (const event of events) {
    const ownTexts = new Set(event.deliveries.map((delivery) => delivery.event));
    const ownQueues = new Set(event.deliveries.map((delivery) => delivery.queueId));
    const size = 5 + 2 * event.deliveries.length;
    if (size + ownTexts.size + QUEUE_ARGUMENTS * ownQueues.size > SCRIPT_ARGUMENTS) {
      flush();
      for (const part of partsOf(event)) scripts.push([part]);
      continue;
    }
    let fresh = costIn(ownTexts, ownQueues);
    if (used + size + fresh > SCRIPT_ARGUMENTS) {
      flush();
      fresh = costIn(ownTexts, ownQueues);
    }
    for (const text of ownTexts) texts.add(text);
    for (const queue of ownQueues) queues.add(queue);
    used += size + fresh;
    current.push(event);
  }
  flush();
  return scripts;
}

/** An event too large for one script, in parts that each fit one (at worst every delivery has a text and a queue of its own). */
function partsOf({ deliveries, onceKey, index }: BatchedEvent): BatchedEvent[] {
  const perPart = Math.floor((SCRIPT_ARGUMENTS - 5) / (3 + QUEUE_ARGUMENTS));
  const parts: BatchedEvent[] = [];
  for (let from = 0; from < deliveries.length; from += perPart) {
    parts.push({ deliveries: deliveries.slice(from, from + perPart), onceKey: onceKey && `${onceKey}#${parts.length}`, index });
  }
  return parts;
}

const ownerOf = (realmId: number, userId: number) => `${realmId}:${userId}`;

/** Zulip's longest queue lifespan (lifespan_secs): a week. */
export const MAX_LIFESPAN_SECONDS = 7 * 24 * 3600;
/** Acknowledgements written back per script: Redis runs each script alone, so a bounded time each. */
const ACKS_PER_SCRIPT = 500;
const DESCRIPTOR_CACHE_SIZE = 50_000;
/** Organizations whose index the fan-out keeps a copy of (beyond it, the copies start again). */
const INDEX_CACHE_REALMS = 10_000;

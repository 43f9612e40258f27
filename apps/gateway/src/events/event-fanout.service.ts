import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, LOGGER, MetricsService, type AppConfig } from '@teamchat/platform';
import { connect, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { EventQueueStore, LeaseLost } from './event-queue.store';
import { FanoutRouting } from './fanout-routing';
import { PartitionFanout } from './partition-fanout';

/**
 * Reads every domain event from JetStream and appends the client events it makes to the
 * recipients' queues, in publication order within each organization and at most once.
 *
 * The work is split into EVENT_FANOUT_PARTITIONS partitions (organizations by id), each fanned
 * out by the gateway replica holding its lease in Redis (see PartitionFanout), so the fan-out's
 * capacity grows with the replicas. Each replica says it is alive every third of the lease
 * (EVENT_FANOUT_ACK_WAIT_SECONDS) and, counting the live ones, holds its fair share: it takes
 * free partitions up to ⌈partitions / replicas⌉ and gives up any beyond it, so a replica that
 * joins gets partitions from the others and one that dies (its leases running out) or leaves
 * (giving them up at once) has its partitions taken over by the rest.
 */
@Injectable()
export class EventFanout implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private connection?: NatsConnection;
  private readonly replica = `${process.pid}:${randomUUID()}`;
  private readonly held = new Map<number, { fanout: PartitionFanout; running: Promise<void> }>();
  private balancing?: Promise<void>;
  private stopping = false;
  private wake?: () => void;

  constructor(
    private readonly store: EventQueueStore,
    private readonly routing: FanoutRouting,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** After EventBus (onModuleInit) has made sure the stream exists. */
  async onApplicationBootstrap(): Promise<void> {
    this.connection = await connect({ servers: this.config.NATS_URL, name: 'gateway-fanout', maxReconnectAttempts: -1, noAsyncTraces: true });
    this.balancing = this.keepBalancing();
  }

  private get leaseMs(): number {
    return this.config.EVENT_FANOUT_ACK_WAIT_SECONDS * 1000;
  }

  private get partitions(): number {
    return this.config.EVENT_FANOUT_PARTITIONS;
  }

  /** The partitions this replica fans out now. */
  heldPartitions(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** Until shutdown: holds this replica's share of the partitions. */
  private async keepBalancing(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.balance();
      } catch (error) {
        if (!this.stopping) this.logger.error({ err: error }, 'event fan-out balancing failed; retrying');
      }
      if (!this.stopping) await this.pause(Math.min(1000, this.leaseMs / 4));
    }
  }

  private async balance(): Promise<void> {
    const replicas = await this.store.replicasAlive(this.replica, this.leaseMs);
    const share = Math.ceil(this.partitions / Math.max(1, replicas));
    // Beyond its share: the highest partitions go back, for the replicas that have too few.
    for (const partition of this.heldPartitions().slice(share).reverse()) await this.giveUp(partition);
    if (this.held.size >= share) return;
    const holders = await this.store.leaseHolders(this.partitions);
    // Free partitions, starting at a place of this replica's own: replicas joining at once try different ones first.
    const start = Number.parseInt(this.replica.slice(-4), 16) % this.partitions;
    for (let step = 0; step < this.partitions && this.held.size < share && !this.stopping; step++) {
      const partition = (start + step) % this.partitions;
      if (holders[partition] !== null || this.held.has(partition)) continue;
      const lease = await this.store.acquireLease(partition, this.leaseMs);
      if (lease) this.hold(new PartitionFanout(lease, this.connection!, this.store, this.routing, this.metrics, this.settings(), this.logger));
    }
  }

  private settings() {
    return { partitions: this.partitions, leaseMs: this.leaseMs, maxInFlight: this.config.EVENT_FANOUT_MAX_IN_FLIGHT };
  }

  private hold(fanout: PartitionFanout): void {
    const { partition } = fanout.lease;
    const labels = { partition: String(partition), replica: String(process.pid) };
    this.metrics.fanoutPartitionsHeld.set(labels, 1);
    const running = fanout
      .run()
      .catch((error: unknown) => {
        if (!this.stopping && !(error instanceof LeaseLost)) this.logger.error({ err: error, partition }, 'event fan-out interrupted; resuming');
      })
      .finally(async () => {
        this.held.delete(partition);
        this.metrics.fanoutPartitionsHeld.remove(labels);
        await this.store.releaseLease(fanout.lease).catch(() => undefined);
        this.wake?.(); // balance again at once: the partition is free
      });
    this.held.set(partition, { fanout, running });
  }

  private async giveUp(partition: number): Promise<void> {
    const held = this.held.get(partition);
    if (!held) return;
    held.fanout.stop();
    await held.running;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => (clearTimeout(timer), resolve());
    });
  }

  /**
   * Before anything closes (Redis goes in onApplicationShutdown): stop pulling, let the batches
   * in hand finish (appended to every queue or to none, and acknowledged), and give the leases
   * up, so the other replicas take over at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.balancing?.catch(() => undefined);
    await Promise.all(this.heldPartitions().map((partition) => this.giveUp(partition)));
    await this.store.replicaGone(this.replica).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
  }
}

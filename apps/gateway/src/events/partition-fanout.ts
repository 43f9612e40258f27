import { EVENT_STREAM, REALM_HEADER, eventSubject } from '@teamchat/contracts';
import { MetricsService, PULL_EXPIRES_MS, eventKeyOf } from '@teamchat/platform';
import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { partitionOf } from './event-queue.keys';
import { EventQueueStore, LeaseLost, StaleIndex, type FanoutLease } from './event-queue.store';
import type { FanoutRouting, Routed } from './fanout-routing';

/** The durable JetStream consumer of fan-out partition `partition` (the replicas share it; its lease holder consumes). */
export const fanoutConsumerName = (partition: number) => `gateway-fanout-${partition}`;

export { partitionOf };

export interface PartitionSettings {
  partitions: number;
  leaseMs: number;
  maxInFlight: number;
}

/**
 * One partition of the fan-out, fanned out by the replica holding its lease: reads every domain
 * event from JetStream through the partition's durable consumer, keeps those of its
 * organizations (REALM_HEADER; the payload's `realmId` for an event published without it), and
 * appends the client events they make to the recipients' queues, in publication order and at
 * most once.
 *
 * It takes events in batches of up to maxInFlight: it reads the recipients' queues for the whole
 * batch at once, appends the whole batch in one script (each queue woken once for all its
 * events), and acknowledges the batch with one ack (the consumer acknowledges all up to a
 * sequence). Each append is refused
 * once the lease is someone else's, so a replica that lost it (paused past its lease) cannot
 * append out of turn, and each is keyed by the event's stream sequence, so an event
 * redelivered after a replica died appends nothing twice. A replica that takes the lease over
 * while events are unacknowledged starts the durable consumer again from the first
 * unacknowledged event, so they come back in order before any later one.
 */
export class PartitionFanout {
  private messages?: ConsumerMessages;
  private stopping = false;

  constructor(
    readonly lease: FanoutLease,
    private readonly connection: NatsConnection,
    private readonly store: EventQueueStore,
    private readonly routing: FanoutRouting,
    private readonly metrics: MetricsService,
    private readonly settings: PartitionSettings,
    private readonly logger: Logger,
  ) {}

  /** Consumes in batches until the lease is lost, the subscription ends, or `stop`. */
  async run(): Promise<void> {
    await this.resetConsumer();
    const consumer = await this.connection.jetstream().consumers.get(EVENT_STREAM, fanoutConsumerName(this.lease.partition));
    const buffered: JsMsg[] = [];
    let arrived = () => {};
    const messages = await consumer.consume({
      max_messages: this.settings.maxInFlight,
      expires: PULL_EXPIRES_MS, // a node lost is noticed in seconds (see PULL_EXPIRES_MS)
      callback: (message) => (buffered.push(message), arrived()),
    });
    this.messages = messages;
    if (this.stopping) messages.stop();
    let held = true;
    const renewal = setInterval(() => {
      void this.store.renewLease(this.lease, this.settings.leaseMs).then(
        (kept) => kept || ((held = false), messages.stop()),
        () => undefined, // Redis unreachable: appends fail too; the lease runs out unless renewed later
      );
    }, this.settings.leaseMs / 3);
    const closed = messages.closed().then(() => arrived());
    try {
      while (held && !this.stopping) {
        if (buffered.length === 0) {
          await new Promise<void>((resolve) => (arrived = resolve));
          if (buffered.length === 0) break; // the subscription ended
          continue;
        }
        const batch = buffered.splice(0, this.settings.maxInFlight);
        await this.process(batch);
      }
    } finally {
      clearInterval(renewal);
      messages.stop();
      await closed;
    }
  }

  /** Stops pulling; the batch in hand finishes (appended to every queue or to none, and acknowledged). */
  stop(): void {
    this.stopping = true;
    this.messages?.stop();
  }

  /**
   * Makes the durable consumer deliver in order from the first event not acknowledged: when a
   * replica stopped holding events it never acknowledged, the consumer starts again there
   * (rather than redelivering them after the ack wait, behind later events).
   */
  private async resetConsumer(): Promise<void> {
    const manager = await this.connection.jetstreamManager();
    const name = fanoutConsumerName(this.lease.partition);
    const settings = {
      durable_name: name,
      ack_policy: AckPolicy.All,
      ack_wait: nanos(this.settings.leaseMs),
      max_ack_pending: this.settings.maxInFlight,
    };
    const info = await manager.consumers.info(EVENT_STREAM, name).catch(() => null);
    if (!info) {
      // The partition's first holder ever: from now on.
      await manager.consumers.add(EVENT_STREAM, { ...settings, deliver_policy: DeliverPolicy.New });
      return;
    }
    if (info.num_ack_pending === 0 && info.config.ack_policy === AckPolicy.All) {
      if (info.config.max_ack_pending !== settings.max_ack_pending || info.config.ack_wait !== settings.ack_wait) {
        await manager.consumers.update(EVENT_STREAM, name, { ack_wait: settings.ack_wait, max_ack_pending: settings.max_ack_pending });
      }
      return;
    }
    // The consumer counts from its start: with nothing acknowledged yet, that is where its first delivery was.
    const next = info.ack_floor.consumer_seq > 0 ? info.ack_floor.stream_seq + 1 : info.delivered.stream_seq - info.delivered.consumer_seq + 1;
    await manager.consumers.delete(EVENT_STREAM, name);
    await manager.consumers.add(EVENT_STREAM, { ...settings, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, next) });
  }

  /**
   * One batch: the partition's events' deliveries worked out at once (their Redis look-ups share
   * a round trip, or none when the fan-out's copy of the index serves them), then appended in
   * order (one round trip too), then one acknowledgement for all (the other partitions' events
   * included). An append refused because an index copy was stale routes the batch again, from
   * Redis. Any other failure leaves the batch unacknowledged, to be redelivered from its first event.
   */
  private async process(batch: JsMsg[]): Promise<void> {
    const mine = batch.filter((message) => this.isMine(message));
    if (mine.length === 0) return void batch[batch.length - 1].ack();
    const timer = this.metrics.fanoutDuration.startTimer();
    const now = Date.now();
    // How long each event waited in JetStream (publication to now), redeliveries included.
    for (const message of mine) this.metrics.fanoutLag.observe(Math.max(0, now - message.info.timestampNanos / 1e6) / 1000);
    try {
      // Organization-wide state that POST /register caches changes: its version first, then the appends.
      const changedState = new Set(mine.filter(changesCachedState).map(realmOf));
      if (changedState.size > 0) await this.store.bumpStateVersions(changedState);
      for (let attempt = 1; ; attempt++) {
        const routed = await this.route(mine);
        try {
          // One append for the batch, in publication order: each queue is woken once for all its events.
          await this.store.appendBatch(
            routed.map(({ message, deliveries, index }) => ({ deliveries, onceKey: eventKeyOf(message), index })),
            this.lease,
          );
        } catch (error) {
          // Stale copies are dropped by then: the next routing reads Redis, and is not checked.
          if (error instanceof StaleIndex && attempt < 3) continue;
          throw error;
        }
        for (const { appended } of routed) appended?.();
        break;
      }
    } catch (error) {
      timer({ outcome: error instanceof LeaseLost ? 'lease_lost' : 'retried' });
      if (!(error instanceof LeaseLost)) this.logger.error({ err: error, events: batch.length }, 'event fan-out failed; will be retried');
      throw error;
    }
    batch[batch.length - 1].ack();
    timer({ outcome: 'ok' });
  }

  /** Each event's deliveries; a malformed event (it can never be delivered) gets none. */
  private route(mine: JsMsg[]): Promise<(Routed & { message: JsMsg })[]> {
    return Promise.all(
      mine.map(async (message) => {
        try {
          return { message, ...(await this.routing.route(message)) };
        } catch (error) {
          if (error instanceof ZodError || error instanceof SyntaxError) {
            // Retrying it would hold up every later one.
            this.logger.error({ err: error, subject: message.subject, seq: message.seq }, 'malformed domain event skipped');
            return { message, deliveries: [] };
          }
          throw error;
        }
      }),
    );
  }

  /** Whether the event's organization is in this partition (an event that names none is partition 0's). */
  private isMine(message: JsMsg): boolean {
    return partitionOf(realmOf(message), this.settings.partitions) === this.lease.partition;
  }
}

/** The organization of a domain event: its header, or (published without one) its payload's `realmId`; 0 if neither. */
function realmOf(message: JsMsg): number {
  const header = message.headers?.get(REALM_HEADER);
  if (header) return Number(header) || 0;
  try {
    const realmId = (JSON.parse(Buffer.from(message.data).toString('utf8')) as { realmId?: unknown } | null)?.realmId;
    return typeof realmId === 'number' && Number.isInteger(realmId) && realmId >= 0 ? realmId : 0;
  } catch {
    return 0; // malformed: partition 0 skips it
  }
}

/**
 * Whether the event may change what POST /register serves from its per-organization cache (the
 * people, see RegisterPeople): any users-groups event, users-groups owning the people.
 */
const changesCachedState = (message: JsMsg): boolean => message.subject.startsWith(USERS_GROUPS_EVENTS);
const USERS_GROUPS_EVENTS = eventSubject('users-groups', '').slice(0, -'.v1'.length);


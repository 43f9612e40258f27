import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STREAM, MessagingEvents, SUBJECT_PREFIX, UsersGroups, UsersGroupsEvents, clientEventSchema, type ClientEvent, type Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, SpanKind, extractNats, inSpan, traceparentOf, tracing, type AppConfig } from '@teamchat/platform';
import { AckPolicy, DeliverPolicy, connect, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { Sessions } from '../auth/sessions';
import { deliveriesOf, messageDeliveries } from './client-events';
import { EventQueueStore, LeaseLost, type Delivery, type FanoutLease } from './event-queue.store';
import type { QueueDescriptor } from './queue-descriptor';

const USER_GROUP_CHANGED = UsersGroupsEvents.userGroupChanged.subject.slice(SUBJECT_PREFIX.length);

/** The key of a stored client event that carries the fan-out's trace context (tracing on only). */
export const TRACE_KEY = '_tp';

/** The durable JetStream consumer the gateway replicas share (the one holding the fan-out lease consumes). */
export const FANOUT_CONSUMER = 'gateway-fanout';

const USER_ACCESS_CHANGED = UsersGroups.UserAdministrationEvents.userAccessChanged.subject.slice(SUBJECT_PREFIX.length);

/**
 * Reads every domain event from JetStream and appends the client events it makes to the
 * recipients' queues, in publication order and at most once.
 *
 * One gateway replica at a time fans out: the one holding the fan-out lease in Redis (renewed
 * every third of EVENT_FANOUT_ACK_WAIT_SECONDS; the others try for it meanwhile). The holder
 * takes events in batches of up to EVENT_FANOUT_MAX_IN_FLIGHT: it reads the recipients' queues
 * for the whole batch at once, appends event after event in one round trip to Redis, and
 * acknowledges the batch with one ack (the consumer acknowledges all up to a sequence). Each
 * append is refused once the lease is someone else's, so a replica that lost it (paused past
 * its lease) cannot append out of turn, and each is keyed by the event's stream sequence, so
 * an event redelivered after a replica died appends nothing twice. A replica that takes the
 * lease over while events are unacknowledged starts the durable consumer again from the
 * first unacknowledged event, so they come back in order before any later one.
 */
@Injectable()
export class EventFanout implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private connection?: NatsConnection;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopping = false;
  private wakeCandidate?: () => void;

  constructor(
    private readonly store: EventQueueStore,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly sessions: Sessions,
  ) {}

  /** After EventBus (onModuleInit) has made sure the stream exists. */
  async onApplicationBootstrap(): Promise<void> {
    this.connection = await connect({ servers: this.config.NATS_URL, name: 'gateway-fanout', maxReconnectAttempts: -1, noAsyncTraces: true });
    this.running = this.keepLeading();
  }

  private get leaseMs(): number {
    return this.config.EVENT_FANOUT_ACK_WAIT_SECONDS * 1000;
  }

  /** Until shutdown: tries for the lease, and fans out while holding it. */
  private async keepLeading(): Promise<void> {
    while (!this.stopping) {
      let lease: FanoutLease | null = null;
      try {
        lease = await this.store.acquireLease(this.leaseMs);
        if (lease) await this.fanOutWhileLeading(lease);
      } catch (error) {
        if (!this.stopping && !(error instanceof LeaseLost)) this.logger.error({ err: error }, 'event fan-out interrupted; resuming');
      } finally {
        if (lease) await this.store.releaseLease(lease).catch(() => undefined);
      }
      if (!this.stopping) await this.pause(Math.min(1000, this.leaseMs / 4));
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeCandidate = () => (clearTimeout(timer), resolve());
    });
  }

  /** Consumes in batches until the lease is lost, the subscription ends, or shutdown. */
  private async fanOutWhileLeading(lease: FanoutLease): Promise<void> {
    await this.resetConsumer();
    const consumer = await this.connection!.jetstream().consumers.get(EVENT_STREAM, FANOUT_CONSUMER);
    const buffered: JsMsg[] = [];
    let arrived = () => {};
    const messages = await consumer.consume({
      max_messages: this.config.EVENT_FANOUT_MAX_IN_FLIGHT,
      callback: (message) => (buffered.push(message), arrived()),
    });
    this.messages = messages;
    let held = true;
    const renewal = setInterval(() => {
      void this.store.renewLease(lease, this.leaseMs).then(
        (kept) => kept || ((held = false), messages.stop()),
        () => undefined, // Redis unreachable: appends fail too; the lease runs out unless renewed later
      );
    }, this.leaseMs / 3);
    const closed = messages.closed().then(() => arrived());
    try {
      while (held && !this.stopping) {
        if (buffered.length === 0) {
          await new Promise<void>((resolve) => (arrived = resolve));
          if (buffered.length === 0) break; // the subscription ended
          continue;
        }
        const batch = buffered.splice(0, this.config.EVENT_FANOUT_MAX_IN_FLIGHT);
        await this.process(batch, lease);
      }
    } finally {
      clearInterval(renewal);
      messages.stop();
      await closed;
    }
  }

  /**
   * Makes the durable consumer deliver in order from the first event not acknowledged: when a
   * replica stopped holding events it never acknowledged, the consumer starts again there
   * (rather than redelivering them after the ack wait, behind later events).
   */
  private async resetConsumer(): Promise<void> {
    const manager = await this.connection!.jetstreamManager();
    const settings = {
      durable_name: FANOUT_CONSUMER,
      ack_policy: AckPolicy.All,
      ack_wait: nanos(this.leaseMs),
      max_ack_pending: this.config.EVENT_FANOUT_MAX_IN_FLIGHT,
    };
    const info = await manager.consumers.info(EVENT_STREAM, FANOUT_CONSUMER).catch(() => null);
    if (!info) {
      // The first gateway ever: from now on.
      await manager.consumers.add(EVENT_STREAM, { ...settings, deliver_policy: DeliverPolicy.New });
      return;
    }
    if (info.num_ack_pending === 0 && info.config.ack_policy === AckPolicy.All) {
      if (info.config.max_ack_pending !== settings.max_ack_pending || info.config.ack_wait !== settings.ack_wait) {
        await manager.consumers.update(EVENT_STREAM, FANOUT_CONSUMER, { ack_wait: settings.ack_wait, max_ack_pending: settings.max_ack_pending });
      }
      return;
    }
    // The consumer counts from its start: with nothing acknowledged yet, that is where its first delivery was.
    const next = info.ack_floor.consumer_seq > 0 ? info.ack_floor.stream_seq + 1 : info.delivered.stream_seq - info.delivered.consumer_seq + 1;
    await manager.consumers.delete(EVENT_STREAM, FANOUT_CONSUMER);
    await manager.consumers.add(EVENT_STREAM, { ...settings, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, next) });
  }

  /**
   * One batch: every event's deliveries worked out at once (their Redis look-ups share a round
   * trip), then appended in order (one round trip too), then one acknowledgement for all.
   * A failure leaves the batch unacknowledged, to be redelivered from its first event.
   */
  private async process(batch: JsMsg[], lease: FanoutLease): Promise<void> {
    const timer = this.metrics.fanoutDuration.startTimer();
    const now = Date.now();
    const prepared = await Promise.all(
      batch.map(async (message) => {
        // How long the event waited in JetStream (publication to now), redeliveries included.
        this.metrics.fanoutLag.observe(Math.max(0, now - message.info.timestampNanos / 1e6) / 1000);
        try {
          return { message, deliveries: await (tracing.enabled ? this.tracedDeliveries(message) : this.deliveriesOf(message)) };
        } catch (error) {
          if (error instanceof ZodError || error instanceof SyntaxError) {
            // A malformed event can never be delivered: retrying it would hold up every later one.
            this.logger.error({ err: error, subject: message.subject, seq: message.seq }, 'malformed domain event skipped');
            return { message, deliveries: [] };
          }
          throw error;
        }
      }),
    ).catch((error: unknown) => {
      timer({ outcome: 'retried' });
      throw error;
    });
    try {
      // Called in order, sent together: Redis runs the appends in publication order.
      await Promise.all(
        prepared.map(({ message, deliveries }) =>
          // Nothing to append (no recipient has a queue): no script, no once-key to remember.
          deliveries.length > 0 ? this.store.append(deliveries, onceKeyOf(message), lease) : undefined,
        ),
      );
    } catch (error) {
      timer({ outcome: error instanceof LeaseLost ? 'lease_lost' : 'retried' });
      if (!(error instanceof LeaseLost)) this.logger.error({ err: error, events: batch.length }, 'event fan-out failed; will be retried');
      throw error;
    }
    batch[batch.length - 1].ack();
    timer({ outcome: 'ok' });
  }

  /**
   * With tracing on: each event's fan-out as a CONSUMER span continuing the publisher's trace,
   * and each client event stored with that span's context (`_tp`), which the long-poll that
   * hands it over takes off again to trace the delivery (see LongPoll).
   */
  private tracedDeliveries(message: JsMsg): Promise<Delivery[]> {
    return inSpan(
      `fanout ${message.subject}`,
      { kind: SpanKind.CONSUMER, parent: extractNats(message.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject } },
      async (span) => {
        const traceparent = traceparentOf();
        const deliveries = (await this.deliveriesOf(message)).map((d) => ({ queueId: d.queueId, event: `{"${TRACE_KEY}":"${traceparent}",${d.event.slice(1)}` }));
        span.setAttribute('teamchat.deliveries', deliveries.length);
        return deliveries;
      },
    );
  }

  private deliveriesOf(message: JsMsg): Promise<Delivery[]> {
    const payload: unknown = JSON.parse(Buffer.from(message.data).toString('utf8'));
    return this.deliveriesFor(message.subject.slice(SUBJECT_PREFIX.length), payload);
  }

  private async deliveriesFor(subject: string, payload: unknown): Promise<Delivery[]> {
    if (subject === MessagingEvents.messageSent.subject.slice(SUBJECT_PREFIX.length)) {
      const sent = MessagingEvents.messageSent.payload.parse(payload);
      // Both look-ups at once: one round trip to Redis.
      const [queues, publicQueueIds] = await Promise.all([
        this.queuesOf(sent.realmId, sent.recipients.map((recipient) => recipient.id)),
        sent.publicChannel ? this.store.allPublicStreamsQueues(sent.realmId) : Promise.resolve([]),
      ]);
      return messageDeliveries(this.withAllPublicStreamsQueues(sent, queues, await this.store.descriptorsOf(publicQueueIds)), queues);
    }
    if (subject === USER_ACCESS_CHANGED) {
      // Not a client event: a deactivated user's queues and browser sessions go (every replica drops cached credentials itself).
      const change = UsersGroups.userAccessChangedSchema.parse(payload);
      if (change.deactivated) await Promise.all([this.store.deleteQueuesOf(change.realmId, change.userId), this.sessions.endAllOf(change.userId)]);
      return [];
    }
    const parsed = (subject === USER_GROUP_CHANGED ? UsersGroupsEvents.userGroupChanged.payload : clientEventSchema).safeParse(payload);
    if (!parsed.success) return []; // not a client-facing event
    const { realmId, users, event, group }: ClientEvent & { group?: unknown } = parsed.data;
    const queues = await this.queuesOf(realmId, users);
    return deliveriesOf(event, [...queues.values()].flat(), group);
  }

  /**
   * A public channel's message also goes to the organization's all_public_streams queues (Zulip's
   * realm-wide clients): their owners who are not recipients join with no flags, and only those
   * queues of theirs. Adds to `queues` and returns the widened event.
   */
  private withAllPublicStreamsQueues(
    sent: Messaging.MessageSent,
    queues: Map<number, QueueDescriptor[]>,
    publicQueues: Map<string, QueueDescriptor>,
  ): Messaging.MessageSent {
    if (publicQueues.size === 0) return sent;
    const recipients = new Set(sent.recipients.map((recipient) => recipient.id));
    const added: Messaging.MessageSent['recipients'] = [];
    for (const queue of publicQueues.values()) {
      if (queue.realmId !== sent.realmId || recipients.has(queue.userId)) continue;
      const own = queues.get(queue.userId);
      if (own) own.push(queue);
      else {
        queues.set(queue.userId, [queue]);
        added.push({ id: queue.userId, flags: [] });
      }
    }
    return { ...sent, recipients: [...sent.recipients, ...added] };
  }

  private async queuesOf(realmId: number, userIds: number[]): Promise<Map<number, QueueDescriptor[]>> {
    const idsByUser = await this.store.queuesOf(realmId, userIds);
    const descriptors = await this.store.descriptorsOf([...idsByUser.values()].flat());
    const result = new Map<number, QueueDescriptor[]>();
    for (const [userId, queueIds] of idsByUser) {
      const found = queueIds.map((id) => descriptors.get(id)).filter((d): d is QueueDescriptor => d !== undefined && d.realmId === realmId);
      if (found.length > 0) result.set(userId, found);
    }
    return result;
  }

  /**
   * Before anything closes (Redis goes in onApplicationShutdown): stop pulling, let the batch in
   * hand finish (appended to every queue or to none, and acknowledged), and give the lease up,
   * so another replica takes over at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    this.wakeCandidate?.();
    await this.running?.catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
  }
}

/** What keys an event's append: its message id if its publisher set one, else its stream sequence (which a redelivery keeps). */
const onceKeyOf = (message: JsMsg): string => message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;

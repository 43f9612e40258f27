import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STREAM, MessagingEvents, SUBJECT_PREFIX, UsersGroups, UsersGroupsEvents, clientEventSchema, type ClientEvent, type Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, MetricsService, SpanKind, extractNats, inSpan, traceparentOf, tracing, type AppConfig } from '@teamchat/platform';
import { AckPolicy, DeliverPolicy, connect, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { deliveriesOf, messageDeliveries } from './client-events';
import { EventQueueStore, type Delivery } from './event-queue.store';
import type { QueueDescriptor } from './queue-descriptor';

const USER_GROUP_CHANGED = UsersGroupsEvents.userGroupChanged.subject.slice(SUBJECT_PREFIX.length);

/** The key of a stored client event that carries the fan-out's trace context (tracing on only). */
export const TRACE_KEY = '_tp';

/** The durable JetStream consumer all gateway replicas share: each domain event goes to one of them. */
export const FANOUT_CONSUMER = 'gateway-fanout';

const USER_ACCESS_CHANGED = UsersGroups.UserAdministrationEvents.userAccessChanged.subject.slice(SUBJECT_PREFIX.length);

/**
 * Reads every domain event from JetStream and appends the client events it makes to the
 * recipients' queues. The consumer is durable, so events published while every gateway was
 * down wait for the first one back; an event is acknowledged only after its append, and the
 * append is keyed by the event's message id, so a redelivery never appends twice. With one
 * event in flight (EVENT_FANOUT_MAX_IN_FLIGHT) the replicas take turns and every queue gets
 * events in the order they were published.
 */
@Injectable()
export class EventFanout implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private connection?: NatsConnection;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly store: EventQueueStore,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** After EventBus (onModuleInit) has made sure the stream exists. */
  async onApplicationBootstrap(): Promise<void> {
    this.connection = await connect({ servers: this.config.NATS_URL, name: 'gateway-fanout', noAsyncTraces: true });
    await this.ensureConsumer();
    this.running = this.keepConsuming();
  }

  private async ensureConsumer(): Promise<void> {
    const manager = await this.connection!.jetstreamManager();
    const settings = {
      durable_name: FANOUT_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.config.EVENT_FANOUT_ACK_WAIT_SECONDS * 1000),
      max_ack_pending: this.config.EVENT_FANOUT_MAX_IN_FLIGHT,
    };
    try {
      await manager.consumers.info(EVENT_STREAM, FANOUT_CONSUMER);
      await manager.consumers.update(EVENT_STREAM, FANOUT_CONSUMER, { ack_wait: settings.ack_wait, max_ack_pending: settings.max_ack_pending });
    } catch {
      // First gateway ever: start from now. Another replica may be creating it too.
      await manager.consumers
        .add(EVENT_STREAM, { ...settings, deliver_policy: DeliverPolicy.New })
        .catch(async (error: unknown) => manager.consumers.info(EVENT_STREAM, FANOUT_CONSUMER).catch(() => Promise.reject(error)));
    }
  }

  /** Consumes until shutdown; if the subscription ends or fails (NATS trouble), starts again. */
  private async keepConsuming(): Promise<void> {
    while (!this.stopping) {
      try {
        const consumer = await this.connection!.jetstream().consumers.get(EVENT_STREAM, FANOUT_CONSUMER);
        this.messages = await consumer.consume({ max_messages: 100 });
        for await (const message of this.messages) await this.process(message);
      } catch (error) {
        if (!this.stopping) this.logger.error({ err: error }, 'event fan-out interrupted; resuming');
      }
      if (!this.stopping) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await this.ensureConsumer().catch((error: unknown) => this.logger.error({ err: error }, 'fan-out consumer not available'));
      }
    }
  }

  private async process(message: JsMsg): Promise<void> {
    const timer = this.metrics.fanoutDuration.startTimer();
    // How long the event waited in JetStream (publication to now), redeliveries included.
    this.metrics.fanoutLag.observe(Math.max(0, Date.now() - message.info.timestampNanos / 1e6) / 1000);
    try {
      await (tracing.enabled ? this.tracedHandle(message) : this.handle(message));
      message.ack();
      timer({ outcome: 'ok' });
    } catch (error) {
      if (error instanceof ZodError || error instanceof SyntaxError) {
        // A malformed event can never be delivered: retrying it would hold up every later one.
        this.logger.error({ err: error, subject: message.subject, seq: message.seq }, 'malformed domain event skipped');
        message.ack();
        timer({ outcome: 'skipped' });
        return;
      }
      timer({ outcome: 'retried' });
      this.logger.error({ err: error, subject: message.subject, seq: message.seq }, 'event fan-out failed; will be retried');
      message.nak(1000);
    }
  }

  /**
   * With tracing on: the fan-out as a CONSUMER span continuing the publisher's trace, and each
   * client event stored with that span's context (`_tp`), which the long-poll that hands it over
   * takes off again to trace the delivery (see LongPoll).
   */
  private tracedHandle(message: JsMsg): Promise<void> {
    return inSpan(
      `fanout ${message.subject}`,
      { kind: SpanKind.CONSUMER, parent: extractNats(message.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject } },
      async (span) => {
        const traceparent = traceparentOf();
        const deliveries = await this.handle(message, traceparent);
        span.setAttribute('teamchat.deliveries', deliveries);
      },
    );
  }

  private async handle(message: JsMsg, traceparent?: string): Promise<number> {
    const subject = message.subject.slice(SUBJECT_PREFIX.length);
    const onceKey = message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;
    const payload: unknown = JSON.parse(Buffer.from(message.data).toString('utf8'));
    let deliveries = await this.deliveriesFor(subject, payload);
    if (traceparent) deliveries = deliveries.map((d) => ({ queueId: d.queueId, event: `{"${TRACE_KEY}":"${traceparent}",${d.event.slice(1)}` }));
    // Nothing to append (no recipient has a queue): no script, no once-key to remember.
    if (deliveries.length > 0) await this.store.append(deliveries, onceKey);
    return deliveries.length;
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
      // Not a client event: a deactivated user's queues go (every replica drops cached credentials itself).
      const change = UsersGroups.userAccessChangedSchema.parse(payload);
      if (change.deactivated) await this.store.deleteQueuesOf(change.realmId, change.userId);
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
   * Before anything closes (Redis goes in onApplicationShutdown): stop pulling and let the event
   * in hand finish, so it is appended to every queue or to none and redelivered elsewhere.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.running?.catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
  }
}

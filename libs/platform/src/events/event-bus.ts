import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENT_STREAM, EVENT_SUBJECTS, REALM_HEADER, type EventDef } from '@teamchat/contracts';
import { JSONCodec, RetentionPolicy, StorageType, connect, headers, type MsgHdrs, type NatsConnection } from 'nats';
import { ReplyInbox } from '../commands/reply-inbox';
import type { Logger } from 'pino';
import { APP_CONFIG, natsServers, type AppConfig } from '../config';
import { LOGGER } from '../logger';
import { SpanKind, inSpan, injectNats, tracing } from '../tracing';

const codec = JSONCodec();

/** The event's organization in a header (REALM_HEADER), when its payload names one. */
function realmHeaders(payload: unknown): MsgHdrs | undefined {
  const realmId = (payload as { realmId?: unknown } | null)?.realmId;
  if (typeof realmId !== 'number') return undefined;
  const carrier = headers();
  carrier.set(REALM_HEADER, String(realmId));
  return carrier;
}
/** Events are kept a day: long enough for any consumer that was down to catch up. */
const MAX_AGE_NANOS = 24 * 3600 * 1e9;
/**
 * How long JetStream remembers a Nats-Msg-Id (its default, written down): an outbox row
 * published twice within it (its writer died before deleting it, and a relay sent it again) is
 * stored once. Relays re-send within seconds, far inside it.
 */
const DUPLICATE_WINDOW_NANOS = 120 * 1e9;
const encoder = new TextEncoder();

/** An event as the outbox stored it (libs/db event-outbox): its row id, subject, organization and JSON. */
export interface StoredEvent {
  id: string;
  subject: string;
  realmId: number | null;
  payload: string;
}

/** A point in the event stream: a sequence and the time JetStream stored that event. */
export interface StreamPosition {
  seq: number;
  timeMs: number;
}

/**
 * Publishes domain events to JetStream. Call it after the transaction that made the change
 * has committed, so no consumer ever sees an event for data that was rolled back.
 */
@Injectable()
export class EventBus implements OnModuleInit, OnApplicationShutdown {
  private connection?: NatsConnection;
  private inbox?: ReplyInbox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    // Like every connection of a service, it outlives a NATS outage: it keeps reconnecting.
    this.connection = await connect({ servers: natsServers(this.config), name: 'event-bus', maxReconnectAttempts: -1, noAsyncTraces: true });
    const manager = await this.connection.jetstreamManager();
    const replicas = this.config.NATS_STREAM_REPLICAS;
    const existing = await manager.streams.info(EVENT_STREAM).catch(() => null);
    if (!existing) {
      await manager.streams
        .add({
          name: EVENT_STREAM,
          subjects: [EVENT_SUBJECTS],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          max_age: MAX_AGE_NANOS,
          duplicate_window: DUPLICATE_WINDOW_NANOS,
          // Its consumers (the fan-out's, the services' durable ones) take the stream's replicas.
          num_replicas: replicas,
        })
        // Another replica may have created it meanwhile.
        .catch(async (error: unknown) => manager.streams.info(EVENT_STREAM).catch(() => Promise.reject(error)));
    } else if (existing.config.num_replicas !== replicas) {
      // A deployment grown to a cluster (or shrunk): JetStream moves the stream to the new count.
      await manager.streams.update(EVENT_STREAM, { ...existing.config, num_replicas: replicas });
      this.logger.info({ stream: EVENT_STREAM, from: existing.config.num_replicas, to: replicas }, 'event stream replicas changed');
    }
    this.inbox = new ReplyInbox(this.connection);
  }

  async publish<P>(def: EventDef<P>, payload: P): Promise<void> {
    if (tracing.enabled) return this.tracedPublish(def, payload);
    await this.store(def.subject, codec.encode(payload), realmHeaders(payload));
  }

  /**
   * Publishes an outbox row: its JSON as stored, with the row's id as JetStream's deduplication
   * key (`Nats-Msg-Id`), so the writer and a relay sending the same row store it once.
   */
  async publishStored(event: StoredEvent, timeoutMs = this.config.NATS_REQUEST_TIMEOUT_MS): Promise<void> {
    const carrier = headers();
    if (event.realmId !== null) carrier.set(REALM_HEADER, String(event.realmId));
    carrier.set('Nats-Msg-Id', `outbox-${event.id}`);
    if (!tracing.enabled) return this.store(event.subject, encoder.encode(event.payload), carrier, timeoutMs);
    // With tracing on: a PRODUCER span, as publish makes, its context in the headers.
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': event.subject, 'messaging.message.id': `outbox-${event.id}` };
    return inSpan(`publish ${event.subject}`, { kind: SpanKind.PRODUCER, attributes }, async () => {
      injectNats(carrier);
      await this.store(event.subject, encoder.encode(event.payload), carrier, timeoutMs);
    });
  }

  /** With tracing on: a PRODUCER span, its context in the message's headers for the consumers. */
  private tracedPublish<P>(def: EventDef<P>, payload: P): Promise<void> {
    return inSpan(`publish ${def.subject}`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': def.subject } }, async () => {
      const carrier = realmHeaders(payload) ?? headers();
      injectNats(carrier);
      await this.store(def.subject, codec.encode(payload), carrier);
    });
  }

  /**
   * A JetStream publish: a plain publish to the stream's subject whose reply is the stream's
   * acknowledgement (or its refusal). Consumers that must act on an event once key it by its
   * stream sequence, which a redelivery keeps.
   */
  private async store(subject: string, data: Uint8Array, carrier?: MsgHdrs, timeoutMs = this.config.NATS_REQUEST_TIMEOUT_MS): Promise<void> {
    if (!this.inbox) throw new Error('EventBus used before it connected');
    const ack = codec.decode((await this.inbox.request(subject, data, timeoutMs, carrier)).data) as {
      error?: { code?: number; description?: string };
    };
    if (ack.error) throw new Error(`JetStream refused ${subject}: ${ack.error.description ?? ack.error.code}`);
  }

  /**
   * Publishes in order and waits for every acknowledgement at once: the events go out on one
   * connection in the order given, which is the order the stream stores them in, so there is no
   * need to wait for one before sending the next. A failure is logged, never thrown, since the
   * change has committed.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async publishAll(events: { def: EventDef<any>; payload: unknown }[], requestId?: string): Promise<void> {
    await Promise.all(
      events.map(({ def, payload }) =>
        this.publish(def as EventDef<unknown>, payload).catch((error: unknown) =>
          this.logger.error({ err: error, subject: def.subject, requestId }, 'event not published'),
        ),
      ),
    );
  }

  /**
   * Where the event stream stands now: its last event's sequence and store time (JetStream's
   * clock). Every event at or before it was published, so its change committed, before this
   * call answered.
   */
  async position(): Promise<StreamPosition> {
    if (!this.inbox) throw new Error('EventBus used before it connected');
    const reply = await this.inbox.request(`$JS.API.STREAM.INFO.${EVENT_STREAM}`, new Uint8Array(), this.config.NATS_REQUEST_TIMEOUT_MS);
    const info = codec.decode(reply.data) as { state?: { last_seq?: number; last_ts?: string }; error?: { description?: string } };
    if (!info.state) throw new Error(`JetStream stream info refused: ${info.error?.description ?? 'no state'}`);
    return { seq: info.state.last_seq ?? 0, timeMs: Date.parse(info.state.last_ts ?? '') || 0 };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain();
  }
}

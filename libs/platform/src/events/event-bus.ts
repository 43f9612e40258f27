import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENT_STREAM, EVENT_SUBJECTS, type EventDef } from '@teamchat/contracts';
import { JSONCodec, RetentionPolicy, StorageType, connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config';
import { LOGGER } from '../logger';

const codec = JSONCodec();
/** Events are kept a day: long enough for any consumer that was down to catch up. */
const MAX_AGE_NANOS = 24 * 3600 * 1e9;

/**
 * Publishes domain events to JetStream. Call it after the transaction that made the change
 * has committed, so no consumer ever sees an event for data that was rolled back.
 */
@Injectable()
export class EventBus implements OnModuleInit, OnApplicationShutdown {
  private connection?: NatsConnection;
  private jetstream?: JetStreamClient;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    this.connection = await connect({ servers: this.config.NATS_URL, name: 'event-bus', noAsyncTraces: true });
    const manager = await this.connection.jetstreamManager();
    try {
      await manager.streams.info(EVENT_STREAM);
    } catch {
      await manager.streams
        .add({
          name: EVENT_STREAM,
          subjects: [EVENT_SUBJECTS],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          max_age: MAX_AGE_NANOS,
        })
        // Another replica may have created it meanwhile.
        .catch(async (error: unknown) => manager.streams.info(EVENT_STREAM).catch(() => Promise.reject(error)));
    }
    this.jetstream = this.connection.jetstream();
  }

  async publish<P>(def: EventDef<P>, payload: P): Promise<void> {
    if (!this.jetstream) throw new Error('EventBus used before it connected');
    // The message id names this event for consumers that must act on it once (the fan-out).
    await this.jetstream.publish(def.subject, codec.encode(payload), { msgID: randomUUID() });
  }

  /** Publishes in order; a failure is logged, never thrown, since the change has committed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async publishAll(events: { def: EventDef<any>; payload: unknown }[], requestId?: string): Promise<void> {
    for (const { def, payload } of events) {
      try {
        await this.publish(def as EventDef<unknown>, payload);
      } catch (error) {
        this.logger.error({ err: error, subject: def.subject, requestId }, 'event not published');
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain();
  }
}

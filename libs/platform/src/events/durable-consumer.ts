import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STREAM } from '@teamchat/contracts';
import { AckPolicy, DeliverPolicy, connect, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';

/**
 * How long a pull request to JetStream lives (nats.js's default is 30 s; heartbeats are expected
 * every half of it). A consumer whose node died notices by two missed heartbeats and pulls again
 * from the new leader, its retries spaced by this too: 5 s brings it back within seconds, where
 * the default took up to a minute on a busy machine (nats-cluster.spec's events came too late).
 */
export const PULL_EXPIRES_MS = 5000;

export interface DurableConsumerOptions {
  natsUrl: string;
  /** The durable consumer's name: the replicas of one service share it, so each event goes to one. */
  name: string;
  /** The one event subject it reads. */
  subject: string;
  logger: Logger;
  /**
   * Handles one event's payload; a throw leaves it unacknowledged, retried a second later. An
   * event may come more than once (see Delivery): work that must not be done twice records
   * `delivery.key` with it (EventOutbox.runOnce).
   */
  handle: (payload: unknown, delivery: Delivery) => Promise<void>;
}

/** Which event a delivery is: the same for every delivery of it. */
export interface Delivery {
  /**
   * The event's Nats-Msg-Id (an outbox row's `outbox-<id>`), else `<stream>:<sequence>`; only
   * the first is unique for ever (a stream recreated after losing its store numbers from 1
   * again), so what is recorded by key should be published through the outbox.
   */
  key: string;
}

/** An event's key, the same for every delivery of it (see Delivery.key). */
export const eventKeyOf = (message: JsMsg): string => message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;

/**
 * A durable JetStream consumer of one event subject for a service: created on first start
 * (from then on: events published while every replica was down wait for the first one back),
 * consumed until `stop`, resumed after NATS trouble, each event acknowledged once handled.
 */
export class DurableConsumer {
  private connection?: NatsConnection;
  private messages?: ConsumerMessages;
  private stopping = false;

  constructor(private readonly options: DurableConsumerOptions) {}

  async start(): Promise<void> {
    const { natsUrl, name, subject } = this.options;
    this.connection = await connect({ servers: natsUrl, name, noAsyncTraces: true });
    const manager = await this.connection.jetstreamManager();
    await manager.consumers.info(EVENT_STREAM, name).catch(() =>
      manager.consumers
        .add(EVENT_STREAM, { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, filter_subject: subject })
        // Another replica may have created it meanwhile.
        .catch(() => manager.consumers.info(EVENT_STREAM, name)),
    );
    void this.consume();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.connection?.drain().catch(() => undefined);
  }

  private async consume(): Promise<void> {
    const { name, logger, handle } = this.options;
    while (!this.stopping) {
      try {
        const consumer = await this.connection!.jetstream().consumers.get(EVENT_STREAM, name);
        this.messages = await consumer.consume({ max_messages: 50, expires: PULL_EXPIRES_MS });
        for await (const message of this.messages) {
          try {
            await handle(message.json(), { key: eventKeyOf(message) });
            message.ack();
          } catch (error) {
            logger.error({ err: error, consumer: name, seq: message.seq }, 'event not handled; will be retried');
            message.nak(1000);
          }
        }
      } catch (error) {
        if (!this.stopping) logger.error({ err: error, consumer: name }, 'event consumer interrupted; resuming');
      }
      if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** What a provider reads for as long as its service runs: one durable consumer each (see EventConsumers). */
export type ConsumedEvents = Pick<DurableConsumerOptions, 'name' | 'subject' | 'handle'>[];

/**
 * A provider's durable consumers, started once its service has bootstrapped and stopped when it
 * shuts down. The provider names what it reads in `consumedEvents`, and has the service's
 * config and logger.
 */
export abstract class EventConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private running: DurableConsumer[] = [];
  protected abstract readonly config: AppConfig;
  protected abstract readonly logger: Logger;

  protected abstract consumedEvents(): ConsumedEvents;

  async onApplicationBootstrap(): Promise<void> {
    this.running = this.consumedEvents().map((events) => new DurableConsumer({ natsUrl: this.config.NATS_URL, logger: this.logger, ...events }));
    await Promise.all(this.running.map((consumer) => consumer.start()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.running.map((consumer) => consumer.stop()));
  }
}

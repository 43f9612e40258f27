import { eventStreamName } from '@teamchat/contracts';
import { JSONCodec, connect, type NatsConnection, type Subscription } from 'nats';
import { deleteStream } from './system-records';

const codec = JSONCodec();

export interface RecordedEvent<T = Record<string, unknown>> {
  subject: string;
  payload: T;
}

/**
 * Listens to every domain event of one test system (its subject namespace) over core NATS,
 * so tests can assert what a change published and to whom. As the event stream does, it keeps
 * one of the messages with the same `Nats-Msg-Id`: an outbox row published by its writer and
 * again by a relay (the writer killed before deleting it) reaches core NATS twice, and the
 * stream, so every consumer and client, once.
 */
export class EventRecorder {
  readonly events: RecordedEvent[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly connection: NatsConnection,
    private readonly subscription: Subscription,
  ) {}

  static async start(natsUrl: string, subjectPrefix: string): Promise<EventRecorder> {
    const connection = await connect({ servers: natsUrl });
    const subscription = connection.subscribe(`${subjectPrefix}event.>`);
    const recorder = new EventRecorder(connection, subscription);
    const seen = new Set<string>();
    void (async () => {
      for await (const message of subscription) {
        const id = message.headers?.get('Nats-Msg-Id');
        if (id) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        recorder.events.push({ subject: message.subject.slice(subjectPrefix.length), payload: codec.decode(message.data) as Record<string, unknown> });
        recorder.waiters.splice(0).forEach((wake) => wake());
      }
    })();
    await connection.flush();
    return recorder;
  }

  clear(): void {
    this.events.length = 0;
  }

  /**
   * Forgets every event published before now, those still on their way here included (a
   * change a test's setup just made announces itself before it answers, but reaches this
   * connection a moment later): `clear` after one round trip.
   */
  async clearPublished(): Promise<void> {
    await this.allPublishedArrived();
    this.clear();
  }

  /** Events whose subject (without the namespace) is `subject`, e.g. `event.messaging.message_sent.v1`. */
  of<T = Record<string, unknown>>(subject: string): T[] {
    return this.events.filter((e) => e.subject === subject).map((e) => e.payload as T);
  }

  /** Waits until `count` events of `subject` have arrived (or fails after `timeoutMs`). */
  async waitFor<T = Record<string, unknown>>(subject: string, count = 1, timeoutMs = 5000): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.of(subject).length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Expected ${count} ${subject} event(s), got ${this.of(subject).length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.of<T>(subject);
  }

  /** Gives late events a moment, then returns what arrived (for asserting that none did). */
  async settle<T = Record<string, unknown>>(subject: string, ms = 300): Promise<T[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.of<T>(subject);
  }

  /**
   * The events of `subject` published before now, for asserting that what a test just did
   * published none (where `settle` waits a fixed 300 ms). A service publishes a change's events
   * before it answers: the outbox awaits JetStream's acknowledgement, and by then the server has
   * routed them to this connection, so one round trip to the server here brings every one of
   * them in. The grace covers what is published on core NATS without waiting (typing).
   */
  async publishedByNow<T = Record<string, unknown>>(subject: string, graceMs = 50): Promise<T[]> {
    await this.allPublishedArrived();
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    return this.of<T>(subject);
  }

  /** One round trip to the server, then until every message it routed here is recorded. */
  private async allPublishedArrived(): Promise<void> {
    await this.connection.flush();
    while (this.subscription.getPending() > 0) await new Promise((resolve) => setImmediate(resolve));
  }

  async stop(): Promise<void> {
    this.subscription.unsubscribe();
    await this.connection.drain();
  }
}

/** Removes a test system's event stream once it is done with it. */
export function deleteEventStream(natsUrl: string, subjectPrefix: string): Promise<void> {
  return deleteStream(natsUrl, eventStreamName(subjectPrefix));
}

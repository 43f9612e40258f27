import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, LOGGER, createRedisSubscriber, type AppConfig, type RedisClient } from '@teamchat/platform';
import type { Logger } from 'pino';
import { EventQueueStore, WAKE_APPENDED, WAKE_DELETED } from './event-queue.store';
import { QueueMirror } from './queue-mirror';

/**
 * Wakes this replica's waiting long-polls when any replica appends to their queues or deletes
 * them: appends publish what they appended on one Redis channel (see WAKE_APPENDED), deletions
 * the queue ids, and every replica listens to it. What was appended to the queues this replica
 * mirrors goes to its QueueMirror first, so the polls it wakes answer from memory.
 */
/**
 * How many polls an append wakes before the event loop turns (setImmediate): a thousand answers
 * in one go hold up for their whole length every send, fan-out read and append reply that
 * arrives meanwhile, each a step on the way to the next deliveries.
 */
const WAKE_SLICE = 64;

@Injectable()
export class QueueWakeups implements OnModuleInit, OnApplicationShutdown {
  private readonly subscriber: RedisClient;
  private readonly waiters = new Map<string, (() => void) | Set<() => void>>();
  /**
   * Queues appended to and not yet woken (from `woken` on), a slice per turn of the event loop;
   * not empty while a slice is due.
   */
  private toWake: string[] = [];
  private woken = 0;

  private subscribed = false;

  constructor(
    private readonly store: EventQueueStore,
    private readonly mirror: QueueMirror,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // Connected by hand: a SUBSCRIBE sent before ioredis's ready check (INFO) would make
    // that check fail on a connection already in subscriber mode.
    this.subscriber = createRedisSubscriber(config);
    this.subscriber.on('error', (error: Error) => this.logger.error({ err: error }, 'wake-up subscriber error'));
    // Wake-ups missed while disconnected: the mirror forgets everything, and the waiting polls
    // read Redis again (ioredis subscribes again on reconnecting, before 'ready').
    this.subscriber.on('close', () => {
      this.mirror.stopListening();
      this.wakeAll();
    });
    this.subscriber.on('ready', () => {
      if (!this.subscribed) return;
      this.mirror.startListening();
      this.wakeAll();
    });
  }

  async onModuleInit(): Promise<void> {
    this.subscriber.on('message', (_channel: string, message: string) => this.received(message));
    await this.subscriber.connect();
    await this.subscriber.subscribe(this.store.wakeChannel);
    this.subscribed = true;
    this.mirror.startListening();
  }

  private received(message: string): void {
    if (message.startsWith(WAKE_DELETED)) {
      for (const queueId of message.slice(WAKE_DELETED.length).split(' ')) {
        this.mirror.forget(queueId);
        this.wake(queueId);
      }
      return;
    }
    if (!message.startsWith(WAKE_APPENDED)) return;
    const sliceDue = this.toWake.length > 0;
    // A\n<n>\n<n texts>\n<g>\n<g lines of text numbers>\n<queue id> <first event id> <group>… (see WAKE_APPENDED).
    const lines = message.split('\n');
    const texts = Number(lines[1]);
    const groupsAt = 2 + texts;
    const groups = Number(lines[groupsAt]);
    // Each group's events, as stored without their ids (each text less its `{`), worked out
    // once for all its queues: what differs per queue is the ids only.
    const bodiesOf: (string[] | undefined)[] = [];
    for (let line = groupsAt + 1 + groups; line < lines.length; line++) {
      const entry = lines[line];
      const firstAt = entry.indexOf(' ');
      const groupAt = entry.indexOf(' ', firstAt + 1);
      const queueId = entry.slice(0, firstAt);
      if (this.mirror.follows(queueId)) {
        const group = Number(entry.slice(groupAt + 1));
        const bodies = (bodiesOf[group] ??= lines[groupsAt + group].split(' ').map((number) => lines[1 + Number(number)].slice(1)));
        this.mirror.heardAll(queueId, Number(entry.slice(firstAt + 1, groupAt)), bodies);
      }
      // The mirror has every queue's events now; their polls are answered a slice at a time.
      this.toWake.push(queueId);
    }
    if (!sliceDue) this.wakeSlice();
  }

  /** Wakes the next slice of appended queues, and leaves the rest to the next turn of the event loop. */
  private readonly wakeSlice = (): void => {
    const end = Math.min(this.woken + WAKE_SLICE, this.toWake.length);
    while (this.woken < end) this.wake(this.toWake[this.woken++]);
    if (this.woken < this.toWake.length) setImmediate(this.wakeSlice);
    else {
      this.toWake = [];
      this.woken = 0;
    }
  };

  /**
   * Calls `wake` when the queue changes, until `offChange`. A queue's one listener (the usual
   * case: its client's poll) is kept as it is, without a set made and dropped on every poll.
   */
  onChange(queueId: string, wake: () => void): void {
    const current = this.waiters.get(queueId);
    if (current === undefined) this.waiters.set(queueId, wake);
    else if (typeof current === 'function') this.waiters.set(queueId, new Set([current, wake]));
    else current.add(wake);
  }

  /** Stops calling `wake` for the queue. */
  offChange(queueId: string, wake: () => void): void {
    const current = this.waiters.get(queueId);
    if (current === wake) this.waiters.delete(queueId);
    else if (typeof current === 'object' && current.delete(wake) && current.size === 0) this.waiters.delete(queueId);
  }

  /** Wakes every waiting long-poll of this replica (it is shutting down). */
  wakeAll(): void {
    for (const queueId of [...this.waiters.keys()]) this.wake(queueId);
  }

  private wake(queueId: string): void {
    const listening = this.waiters.get(queueId);
    if (typeof listening === 'function') this.call(queueId, listening);
    // A copy when several wait (a wake may cancel another).
    else if (listening) for (const wake of [...listening]) this.call(queueId, wake);
  }

  private call(queueId: string, wake: () => void): void {
    try {
      wake();
    } catch (error) {
      this.logger.error({ err: error, queueId }, 'long-poll wake-up failed');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber.disconnect();
  }
}

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
@Injectable()
export class QueueWakeups implements OnModuleInit, OnApplicationShutdown {
  private readonly subscriber: RedisClient;
  private readonly waiters = new Map<string, Set<() => void>>();

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
      this.wake(queueId);
    }
  }

  /** Calls `wake` once when the queue changes; the returned function cancels. */
  onChange(queueId: string, wake: () => void): () => void {
    let set = this.waiters.get(queueId);
    if (!set) this.waiters.set(queueId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.waiters.get(queueId) === set) this.waiters.delete(queueId);
    };
  }

  /** Wakes every waiting long-poll of this replica (it is shutting down). */
  wakeAll(): void {
    for (const queueId of [...this.waiters.keys()]) this.wake(queueId);
  }

  private wake(queueId: string): void {
    const set = this.waiters.get(queueId);
    if (!set) return;
    // A copy when several wait (a wake may cancel another); one, the usual case, needs none.
    for (const wake of set.size === 1 ? set : [...set]) {
      try {
        wake();
      } catch (error) {
        this.logger.error({ err: error, queueId }, 'long-poll wake-up failed');
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber.disconnect();
  }
}

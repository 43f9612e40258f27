import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { EventQueueStore } from './event-queue.store';

/**
 * Wakes this replica's waiting long-polls when any replica appends to their queues: appends
 * publish the queue ids on one Redis channel, and every replica listens to it.
 */
@Injectable()
export class QueueWakeups implements OnModuleInit, OnApplicationShutdown {
  private readonly subscriber: Redis;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: EventQueueStore,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // Connected by hand: a SUBSCRIBE sent before ioredis's ready check (INFO) would make
    // that check fail on a connection already in subscriber mode.
    this.subscriber = new Redis(config.REDIS_URL, { lazyConnect: true });
    this.subscriber.on('error', (error: Error) => this.logger.error({ err: error }, 'wake-up subscriber error'));
  }

  async onModuleInit(): Promise<void> {
    this.subscriber.on('message', (_channel: string, message: string) => {
      for (const queueId of message.split(' ')) this.wake(queueId);
    });
    await this.subscriber.connect();
    await this.subscriber.subscribe(this.store.wakeChannel);
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
    for (const wake of [...set]) {
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

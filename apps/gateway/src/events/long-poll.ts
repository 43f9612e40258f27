import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { EventQueueStore, badEventQueue } from './event-queue.store';
import type { QueueDescriptor } from './queue-descriptor';
import { QueueWakeups } from './queue-wakeups';

const HEARTBEAT = '{"type":"heartbeat"}';

/**
 * GET /events: acknowledges what the client has, then answers with what is pending, or waits
 * until an append (on any replica) or the heartbeat. While a poll is connected the queue's idle
 * timer is held off, and every poll restarts it, as Zulip's does.
 */
@Injectable()
export class LongPoll {
  constructor(
    private readonly store: EventQueueStore,
    private readonly wakeups: QueueWakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Zulip sends a heartbeat after 45 s plus up to 10 s of jitter; the jitter scales with the period. */
  private heartbeatMs(): number {
    const base = this.config.EVENT_HEARTBEAT_SECONDS * 1000;
    return base + Math.random() * base * (10 / 45);
  }

  async poll(queue: QueueDescriptor, lastEventId: number, dontBlock: boolean, closed: Promise<void>): Promise<Record<string, unknown>[]> {
    await this.store.acknowledge(queue.queueId, lastEventId);
    const connectedFor = queue.lifespanSeconds + (this.config.EVENT_HEARTBEAT_SECONDS * 55) / 45 + 30;
    let heartbeatDue = false;
    let held = false;
    const heartbeat = new Promise<void>((resolve) => {
      const timer = setTimeout(() => ((heartbeatDue = true), resolve()), this.heartbeatMs());
      void closed.then(() => clearTimeout(timer));
    });
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    try {
      for (;;) {
        let cancel = () => {};
        const changed = new Promise<void>((resolve) => (cancel = this.wakeups.onChange(queue.queueId, resolve)));
        try {
          const events = await this.store.pending(queue.queueId);
          if (events === null) throw badEventQueue(queue.queueId);
          if (events.length > 0 || dontBlock || isClosed) return events;
          if (heartbeatDue) {
            await this.store.append([{ queueId: queue.queueId, event: HEARTBEAT }]);
            continue;
          }
          if (!held) {
            await this.store.keepFor(queue.queueId, connectedFor);
            held = true;
          }
          await Promise.race([changed, heartbeat, closed]);
        } finally {
          cancel();
        }
      }
    } finally {
      // Every poll, blocking or not, restarts the idle timer (Zulip's last_connection_time).
      await this.store.keepFor(queue.queueId, queue.lifespanSeconds).catch(() => undefined);
    }
  }
}

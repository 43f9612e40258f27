import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { EventQueueStore } from './event-queue.store';
import { QueueWakeups } from './queue-wakeups';

const HEARTBEAT = '{"type":"heartbeat"}';

export interface PollRequest {
  queueId: string;
  realmId: number;
  userId: number;
  lastEventId: number;
  dontBlock: boolean;
  /** Settles when the client goes away. */
  closed: Promise<void>;
}

/**
 * GET /events: acknowledges what the client has, then answers with what is pending, or waits
 * until an append (on any replica) or the heartbeat. Every poll restarts the queue's idle timer,
 * and a waiting poll holds it off, as Zulip's last_connection_time does. One Redis call per
 * poll in the usual case.
 */
@Injectable()
export class LongPoll implements BeforeApplicationShutdown {
  private draining = false;

  constructor(
    private readonly store: EventQueueStore,
    private readonly wakeups: QueueWakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * On SIGTERM, before the HTTP server closes: waiting polls answer now (with nothing), so the
   * server need not wait out their heartbeats; the clients poll again, reaching another replica.
   */
  beforeApplicationShutdown(): void {
    this.draining = true;
    this.wakeups.wakeAll();
  }

  /** Zulip sends a heartbeat after 45 s plus up to 10 s of jitter; the jitter scales with the period. */
  private heartbeatMs(): number {
    const base = this.config.EVENT_HEARTBEAT_SECONDS * 1000;
    return base + Math.random() * base * (10 / 45);
  }

  /** The events to hand over, as the JSON texts the queue holds. */
  async poll({ queueId, realmId, userId, lastEventId, dontBlock, closed }: PollRequest): Promise<string[]> {
    // How long a waiting poll may keep the queue alive: the longest heartbeat wait and a margin.
    const holdSeconds = dontBlock ? 0 : (this.config.EVENT_HEARTBEAT_SECONDS * 55) / 45 + 30;
    let heartbeatDue = false;
    let isClosed = false;
    let timer: NodeJS.Timeout | undefined;
    const heartbeat = new Promise<void>((resolve) => {
      if (!dontBlock) timer = setTimeout(() => ((heartbeatDue = true), resolve()), this.heartbeatMs());
    });
    void closed.then(() => {
      isClosed = true;
      clearTimeout(timer);
    });
    try {
      for (;;) {
        // Listen before looking, so an append in between still wakes this poll.
        let cancel = () => {};
        const changed = new Promise<void>((resolve) => (cancel = this.wakeups.onChange(queueId, resolve)));
        try {
          const events = await this.store.take(queueId, realmId, userId, lastEventId, isClosed ? 0 : holdSeconds);
          if (events.length > 0 || dontBlock || isClosed || this.draining) return events;
          if (heartbeatDue) {
            await this.store.append([{ queueId, event: HEARTBEAT }]);
            continue;
          }
          await Promise.race([changed, heartbeat, closed]);
        } finally {
          cancel();
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

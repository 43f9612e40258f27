import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { EventQueueStore } from './event-queue.store';
import { QueueMirror } from './queue-mirror';
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
 * and a waiting poll holds it off, as Zulip's last_connection_time does. In the usual case no
 * Redis call at all: the queue is mirrored in memory (QueueMirror), its appends arrive with
 * their wake-ups and acknowledgements are written back in batches; otherwise one call reads
 * the queue from Redis, and the mirror takes it up from there.
 */
@Injectable()
export class LongPoll implements BeforeApplicationShutdown {
  private draining = false;

  constructor(
    private readonly store: EventQueueStore,
    private readonly mirror: QueueMirror,
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
    let heartbeatAppended = false;
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
          const hold = isClosed ? 0 : holdSeconds;
          const events = this.mirror.poll(queueId, realmId, userId, lastEventId, hold) ?? (await this.read(queueId, realmId, userId, lastEventId, hold));
          if (events.length > 0 || dontBlock || isClosed || this.draining) return events;
          if (heartbeatDue && !heartbeatAppended) {
            heartbeatAppended = true;
            // A queue found gone (expired, or Redis lost it) is forgotten: the next look reads
            // Redis, which answers BAD_EVENT_QUEUE_ID.
            const appended = await this.store.append([{ queueId, event: HEARTBEAT }], { partition: this.store.partitionOf(realmId) });
            if (appended.length === 0) this.mirror.forget(queueId);
            continue;
          }
          // Once the heartbeat is appended, its wake-up (which may come after the append's
          // reply) answers the poll: one heartbeat, never two.
          await Promise.race(heartbeatAppended ? [changed, closed] : [changed, heartbeat, closed]);
        } finally {
          cancel();
        }
      }
    } finally {
      clearTimeout(timer);
      this.mirror.touch(queueId);
    }
  }

  /** The queue read from Redis (its owner checked, the acknowledgement applied), and mirrored from then on. */
  private async read(queueId: string, realmId: number, userId: number, lastEventId: number, holdSeconds: number): Promise<string[]> {
    this.mirror.beginRead(queueId);
    try {
      // An acknowledgement answered from memory goes first: Redis must know what the client was told.
      await this.mirror.writeBackOne(queueId);
      const read = await this.store.take(queueId, realmId, userId, lastEventId, holdSeconds);
      this.mirror.adopt(queueId, { realmId, userId, lifespanSeconds: read.lifespanSeconds }, lastEventId, read);
      return read.events;
    } catch (error) {
      this.mirror.endRead(queueId);
      this.mirror.forget(queueId);
      throw error;
    }
  }
}

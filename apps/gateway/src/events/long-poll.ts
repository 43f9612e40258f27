import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, MetricsService, type AppConfig } from '@teamchat/platform';
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
  /** Registers what to do when the client goes away. */
  onClose: (listener: () => void) => void;
}

/** A poll that may wait: what has happened to it since it last looked, and how to wake it. */
interface Waiter {
  /** Its queue changed (or it is to look again for another reason) since it last looked. */
  changed: boolean;
  /** When its heartbeat is due (ms), Infinity for none. */
  heartbeatAt: number;
  heartbeatDue: boolean;
  closed: boolean;
  /** Set while it waits: ends the wait. */
  wake?: () => void;
}

/** Marks the waiter to look again, and ends its wait if it is waiting. */
function signal(waiter: Waiter): void {
  waiter.changed = true;
  const wake = waiter.wake;
  waiter.wake = undefined;
  wake?.();
}

/**
 * GET /events: acknowledges what the client has, then answers with what is pending, or waits
 * until an append (on any replica) or the heartbeat. Every poll restarts the queue's idle timer,
 * and a waiting poll holds it off, as Zulip's last_connection_time does. In the usual case no
 * Redis call at all: the queue is mirrored in memory (QueueMirror), its appends arrive with
 * their wake-ups and acknowledgements are written back in batches; otherwise one call reads
 * the queue from Redis, and the mirror takes it up from there.
 *
 * A waiting poll costs one promise: its heartbeat is kept by one clock for all of them (a tick
 * of a tenth of the period, at most a second), where a timer each, every one of a different
 * duration (the jitter), cost the timers' heap work on every poll.
 */
@Injectable()
export class LongPoll implements OnModuleInit, BeforeApplicationShutdown {
  private draining = false;
  private readonly waiting = new Set<Waiter>();
  private clock?: NodeJS.Timeout;

  constructor(
    private readonly store: EventQueueStore,
    private readonly mirror: QueueMirror,
    private readonly wakeups: QueueWakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    // The waiting polls are the gauge's count (read when scraped).
    metrics.countLongPolls(() => this.waiting.size);
  }

  onModuleInit(): void {
    const tickMs = Math.min(1000, Math.max(50, (this.config.EVENT_HEARTBEAT_SECONDS * 1000) / 10));
    this.clock = setInterval(() => this.tick(Date.now()), tickMs);
    this.clock.unref();
  }

  /** Wakes the waiting polls whose heartbeat is due. */
  private tick(now: number): void {
    for (const waiter of this.waiting) {
      if (waiter.heartbeatAt > now) continue;
      waiter.heartbeatAt = Infinity;
      waiter.heartbeatDue = true;
      signal(waiter);
    }
  }

  /**
   * On SIGTERM, before the HTTP server closes: waiting polls answer now (with nothing), so the
   * server need not wait out their heartbeats; the clients poll again, reaching another replica.
   */
  beforeApplicationShutdown(): void {
    this.draining = true;
    clearInterval(this.clock);
    for (const waiter of this.waiting) signal(waiter);
  }

  /** Zulip sends a heartbeat after 45 s plus up to 10 s of jitter; the jitter scales with the period. */
  private heartbeatMs(): number {
    const base = this.config.EVENT_HEARTBEAT_SECONDS * 1000;
    return base + Math.random() * base * (10 / 45);
  }

  /** The events to hand over, as the JSON texts the queue holds. */
  async poll({ queueId, realmId, userId, lastEventId, dontBlock, onClose }: PollRequest): Promise<string[]> {
    // How long a waiting poll may keep the queue alive: the longest heartbeat wait and a margin.
    const holdSeconds = dontBlock ? 0 : (this.config.EVENT_HEARTBEAT_SECONDS * 55) / 45 + 30;
    const waiter: Waiter = { changed: false, heartbeatAt: dontBlock ? Infinity : Date.now() + this.heartbeatMs(), heartbeatDue: false, closed: false };
    let heartbeatAppended = false;
    onClose(() => {
      waiter.closed = true;
      signal(waiter);
    });
    // Listening before the first look, so an append in between still wakes this poll.
    const wake = () => signal(waiter);
    this.wakeups.onChange(queueId, wake);
    this.waiting.add(waiter);
    try {
      for (;;) {
        waiter.changed = false;
        const hold = waiter.closed ? 0 : holdSeconds;
        const events = this.mirror.poll(queueId, realmId, userId, lastEventId, hold) ?? (await this.read(queueId, realmId, userId, lastEventId, hold));
        if (events.length > 0 || dontBlock || waiter.closed || this.draining) return events;
        if (waiter.heartbeatDue && !heartbeatAppended) {
          heartbeatAppended = true;
          // A queue found gone (expired, or Redis lost it) is forgotten: the next look reads
          // Redis, which answers BAD_EVENT_QUEUE_ID.
          const appended = await this.store.append([{ queueId, event: HEARTBEAT }], { partition: this.store.partitionOf(realmId) });
          if (appended.length === 0) this.mirror.forget(queueId);
          continue;
        }
        // Once the heartbeat is appended, its wake-up (which may come after the append's
        // reply) answers the poll: one heartbeat, never two.
        if (!waiter.changed) await new Promise<void>((resolve) => (waiter.wake = resolve));
      }
    } finally {
      this.wakeups.offChange(queueId, wake);
      this.waiting.delete(waiter);
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

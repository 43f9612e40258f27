import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventDef } from '@teamchat/contracts';
import { APP_CONFIG, EventBus, LOGGER, settleWithin, timeToAnswerMs, type AppConfig, type StoredEvent } from '@teamchat/platform';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { claimConsumedEvent } from './consumed-events';
import { PgService, queryableOf, statement, type Queryable } from './pg.service';
import { PrismaService } from './prisma.service';
import type { Prisma } from './generated/prisma/client';

/**
 * The transactional outbox (issue 29). A change and the events announcing it commit together:
 * the events are rows of `event_outbox`, written by the change's own transaction (a send writes
 * them in its one statement). After the commit the writer publishes them itself, in order, each
 * with its row id as JetStream's deduplication key, and deletes them in batches. Rows whose writer
 * died before publishing (or before deleting) are published by the relay of any service that owns
 * tables: every OUTBOX_SWEEP_MS it claims rows older than OUTBOX_GRACE_MS with FOR UPDATE SKIP
 * LOCKED (so replicas share them), publishes, deletes; a writer whose publish failed wakes the
 * relays at once with NOTIFY. A row published twice (writer and relay) is stored once by JetStream.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OutboxEvent = { def: EventDef<any>; payload: unknown };

/** An event's JSON before its row exists; `tail` non-null: the statement writes `head || <new id> || tail`. */
export interface OutboxDraft {
  subject: string;
  realmId: number | null;
  head: string;
  tail: string | null;
}

const NOTIFY_CHANNEL = 'event_outbox';
/** The pause before publishing again what JetStream refused, growing with each try (at most a second). */
const PUBLISH_RETRY_PAUSE_MS = 100;
/** Tries outside a command (a worker's change), which has no caller waiting to bound them. */
const PUBLISH_ATTEMPTS_OUTSIDE_COMMANDS = 5;

const stageEvents = statement<{ id: string }, [subjects: string[], realmIds: (number | null)[], payloads: string[]]>(
  'outbox.stage',
  `INSERT INTO event_outbox (subject, realm_id, payload)
   SELECT e.subject, e.realm_id, e.payload FROM unnest($1::text[], $2::int[], $3::text[]) WITH ORDINALITY AS e(subject, realm_id, payload, n)
   ORDER BY e.n
   RETURNING id`,
);

const deleteEvents = statement<never, [ids: string[]]>('outbox.delete', `DELETE FROM event_outbox WHERE id = ANY($1::bigint[])`);

const claimEvents = statement<StoredEvent, [olderThanMs: number, limit: number]>(
  'outbox.claim',
  `SELECT id, subject, realm_id AS "realmId", payload FROM event_outbox
   WHERE created_at < now() - $1 * interval '1 millisecond'
   ORDER BY id LIMIT $2
   FOR UPDATE SKIP LOCKED`,
);

/** claimEvents for a sweep that must keep id order: it waits for rows another relay is publishing (and deleting). */
const claimEventsInOrder = statement<StoredEvent, [olderThanMs: number, limit: number]>(
  'outbox.claim-in-order',
  `SELECT id, subject, realm_id AS "realmId", payload FROM event_outbox
   WHERE created_at < now() - $1 * interval '1 millisecond'
   ORDER BY id LIMIT $2
   FOR UPDATE`,
);

const notifyRelays = statement<never, []>('outbox.notify', `SELECT pg_notify('${NOTIFY_CHANNEL}', '')`);

const realmOf = (payload: unknown): number | null => {
  const realmId = (payload as { realmId?: unknown } | null)?.realmId;
  return typeof realmId === 'number' ? realmId : null;
};

/**
 * An event as a draft row. With `placeholder`, a string value in the payload that the statement
 * replaces with the id it creates (a new message's): the JSON is cut around it. The placeholder
 * is a string with a NUL in it, which JSON writes as `\u0000` and no stored text can contain.
 */
export function outboxDraft(event: OutboxEvent, placeholder?: string): OutboxDraft {
  const json = JSON.stringify(event.payload);
  const base = { subject: event.def.subject, realmId: realmOf(event.payload) };
  if (placeholder === undefined) return { ...base, head: json, tail: null };
  const parts = json.split(JSON.stringify(placeholder));
  if (parts.length !== 2) throw new Error(`outbox draft of ${event.def.subject}: the placeholder appears ${parts.length - 1} times`);
  return { ...base, head: parts[0], tail: parts[1] };
}

/** The placeholder of a new message's id in an outbox draft (see outboxDraft). */
export const NEW_MESSAGE_ID = '\u0000new-message-id';

/** Row ids in the order their rows were written: bigserial values, ascending as written. */
const inWriteOrder = (ids: string[]): string[] => [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));

/** Publishes the outbox rows nobody else did (their writer died or could not reach NATS). */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private listener?: Client;
  private sweeping?: Promise<boolean>;
  private queued?: Promise<boolean>;
  private stopped = false;
  /** How many times the relay fell behind, and how many of those a sweep since caught up with. */
  private fallen = 0;
  private caughtUp = 0;

  constructor(
    private readonly pg: PgService,
    private readonly bus: EventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(this.behind ? 0 : this.config.OUTBOX_GRACE_MS), this.config.OUTBOX_SWEEP_MS);
    this.timer.unref();
    void this.listen();
  }

  /**
   * Rows a writer left to the relays (its own or, told by NOTIFY, another process's) may still
   * wait: until a sweep without grace begun since finds none, writers publish through sweeps,
   * in id order.
   */
  get behind(): boolean {
    return this.caughtUp < this.fallen;
  }

  /** A writer left rows to the relays: the next writers publish behind them. */
  fallBehind(): void {
    this.fallen++;
  }

  /** LISTEN on a connection of its own; a lost connection is opened again on the next sweep's turn. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.DATABASE_URL });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.listener === client) this.listener = undefined;
      if (!this.stopped) setTimeout(() => void this.listen(), this.config.OUTBOX_SWEEP_MS).unref();
    });
    // A writer's publish failed: its rows are new, so take them without the grace, and publish
    // this process's next rows behind them.
    client.on('notification', () => {
      this.fallBehind();
      void this.sweep(0);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      this.listener = client;
    } catch {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * One sweep at a time: asked for while one runs, a sweep starts after it, shared by all who
   * asked meanwhile (so the answer always comes from a sweep begun after the call). Answers
   * whether it published every row it found.
   */
  sweep(graceMs: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    if (this.sweeping) {
      this.queued ??= this.sweeping.then(() => {
        this.queued = undefined;
        return this.sweep(0);
      });
      return this.queued;
    }
    const fallenBefore = this.fallen;
    this.sweeping = this.drain(graceMs)
      .then(() => {
        // Nothing older waits any more (rows another replica's relay holds are on their way).
        if (graceMs === 0) this.caughtUp = Math.max(this.caughtUp, fallenBefore);
        return true;
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'outbox sweep failed; the next one retries');
        return false;
      })
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /**
   * Batches of claimed rows, published in order and deleted in the claiming transaction. The
   * periodic sweep skips rows another relay holds (replicas share the work); one without grace
   * (a writer's, or after a NOTIFY) waits for them, so nothing it publishes overtakes them.
   */
  private async drain(graceMs: number): Promise<void> {
    for (;;) {
      const published = await this.pg.transaction(async (tx) => {
        const rows = await tx.run(graceMs === 0 ? claimEventsInOrder : claimEvents, graceMs, 500);
        if (rows.length === 0) return 0;
        await Promise.all(rows.map((row) => this.bus.publishStored({ ...row, id: String(row.id) })));
        await tx.run(
          deleteEvents,
          rows.map((row) => String(row.id)),
        );
        return rows.length;
      });
      if (published > 0) this.logger.info({ rows: published }, 'outbox relay published events their writers did not');
      if (published < 500 || this.stopped) return;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }
}

@Injectable()
export class EventOutbox implements BeforeApplicationShutdown {
  private forgotten: string[] = [];
  private flushing?: Promise<void>;
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly pg: PgService,
    private readonly bus: EventBus,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly relay: OutboxRelay,
  ) {}

  /** Writes the events as outbox rows in the caller's transaction; publish what it answers after the commit. */
  async stage(tx: Queryable, events: OutboxEvent[]): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const drafts = events.map((event) => outboxDraft(event));
    const rows = await tx.run(
      stageEvents,
      drafts.map((d) => d.subject),
      drafts.map((d) => d.realmId),
      drafts.map((d) => d.head),
    );
    // A Prisma transaction's raw query answers bigint ids as BigInt, pg's as text.
    return this.stored(drafts, rows.map((row) => String(row.id)));
  }

  /**
   * `work` in one transaction with the events it answers written in it, published after the
   * commit: what a use case that changes data and announces it calls.
   */
  async run<T>(work: (tx: Queryable) => Promise<{ value: T; events: OutboxEvent[] }>, requestId?: string): Promise<T> {
    const { value, staged } = await this.pg.transaction(async (tx) => {
      const done = await work(tx);
      return { value: done.value, staged: await this.stage(tx, done.events) };
    });
    await this.publish(staged, requestId);
    return value;
  }

  /**
   * `run` for a durable consumer's event (see DurableConsumer): the event is recorded as handled
   * in the same transaction, and a delivery of it found recorded runs nothing (undefined).
   */
  async runOnce<T>(
    consumed: { consumer: string; eventKey: string },
    work: (tx: Queryable) => Promise<{ value: T; events: OutboxEvent[] }>,
  ): Promise<T | undefined> {
    return this.run(async (tx) => {
      if (!(await claimConsumedEvent(tx, consumed.consumer, consumed.eventKey))) return { value: undefined, events: [] };
      return work(tx);
    });
  }

  /**
   * `run` for the cold paths: `work` in one Prisma interactive transaction (its repository
   * methods take the transaction client), the events written on the same connection.
   */
  async runCold<T>(
    work: (tx: Prisma.TransactionClient) => Promise<{ value: T; events: OutboxEvent[] }>,
    requestId?: string,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<T> {
    const { value, staged } = await this.prisma.transaction(async (tx) => {
      const done = await work(tx);
      return { value: done.value, staged: await this.stage(queryableOf(tx), done.events) };
    }, options);
    await this.publish(staged, requestId);
    return value;
  }

  /**
   * The rows a statement wrote from `drafts` (in order), given the ids it answered and the id it
   * spliced into the drafts that have a tail.
   */
  stored(drafts: OutboxDraft[], ids: string[], splicedId?: number): StoredEvent[] {
    const ordered = inWriteOrder(ids);
    if (ordered.length !== drafts.length) throw new Error(`outbox: ${drafts.length} events written as ${ordered.length} rows`);
    return drafts.map((draft, i) => ({
      id: ordered[i],
      subject: draft.subject,
      realmId: draft.realmId,
      payload: draft.tail === null ? draft.head : `${draft.head}${splicedId}${draft.tail}`,
    }));
  }

  /**
   * Publishes committed rows in order and forgets those JetStream took. What JetStream refuses
   * (its stream between leaders, a NATS node lost) is tried again for as long as the caller can
   * still be answered, so an acknowledged change is announced before the answer and in order
   * with the changes after it; only past that is it left to the relays (told at once), and
   * announced a few seconds late. While rows left so may still wait (the relay is `behind`),
   * rows are published by a relay's sweep instead, in id order, so a change acknowledged
   * after one left behind is never announced before it. A failure is never thrown: the change
   * has committed.
   */
  async publish(rows: StoredEvent[], requestId?: string): Promise<void> {
    if (rows.length === 0) return;
    let pending = rows;
    for (let attempt = 1; ; attempt++) {
      if (this.relay.behind) pending = (await this.publishThroughRelay()) ? [] : pending;
      else pending = await this.publishOnce(pending);
      if (pending.length === 0) return;
      const pause = Math.min(PUBLISH_RETRY_PAUSE_MS * attempt, 1000);
      if (attempt >= PUBLISH_ATTEMPTS_OUTSIDE_COMMANDS && timeToAnswerMs() === Infinity) break;
      if (timeToAnswerMs() < pause + PUBLISH_RETRY_PAUSE_MS) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    // Before the answer: from here every writer of this process publishes behind these rows, and
    // the NOTIFY puts the other processes' writers behind them too.
    this.relay.fallBehind();
    for (const row of pending) this.logger.error({ subject: row.subject, outboxId: row.id, requestId }, 'event not published yet; the outbox relay will');
    await this.pg.run(notifyRelays).catch(() => undefined);
  }

  /**
   * A sweep begun after the caller's commit publishes its rows after every older one waiting;
   * whether it did so in the time the caller has.
   */
  private publishThroughRelay(): Promise<boolean> {
    const sweep = this.relay.sweep(0);
    const timeLeft = timeToAnswerMs() - PUBLISH_RETRY_PAUSE_MS;
    return timeLeft === Infinity ? sweep : settleWithin(sweep, timeLeft, false);
  }

  /** One try for each row, all at once (in order on the connection); the rows JetStream did not take. */
  private async publishOnce(rows: StoredEvent[]): Promise<StoredEvent[]> {
    const failed: StoredEvent[] = [];
    await Promise.all(
      rows.map((row) =>
        this.bus.publishStored(row, Math.min(this.config.NATS_REQUEST_TIMEOUT_MS, Math.max(PUBLISH_RETRY_PAUSE_MS, timeToAnswerMs()))).then(
          () => this.forget(row.id),
          (error: unknown) => {
            failed.push(row);
            this.logger.warn({ err: error, subject: row.subject, outboxId: row.id }, 'event not published; trying again');
          },
        ),
      ),
    );
    return rows.filter((row) => failed.includes(row));
  }

  /** Rows JetStream has are deleted in batches: one statement for everything published in a moment. */
  forget(id: string): void {
    this.forgotten.push(id);
    this.flushTimer ??= setTimeout(() => void this.flush(), 20);
  }

  private flush(): Promise<void> {
    this.flushTimer = undefined;
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.forgotten.length === 0) return Promise.resolve();
    const ids = this.forgotten;
    this.forgotten = [];
    this.flushing = this.pg
      .run(deleteEvents, ids)
      .then(() => undefined)
      // Left in the table, they are published again by a relay and dropped by JetStream as duplicates.
      .catch((error: unknown) => this.logger.warn({ err: error, rows: ids.length }, 'published outbox rows not deleted'))
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.flushTimer);
    await this.flush();
  }
}

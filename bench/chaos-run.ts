/**
 * The run shared by `npm run chaos` and `npm run cluster`: the whole system with two replicas of
 * every service under a steady load — senders posting channel and direct messages,
 * CHAOS_POLLERS clients long-polling their event queues, typing, scheduled messages coming due and
 * a topic being deleted — while the plan's faults happen one step at a time. After each step it
 * checks the promises and prints them; it exits non-zero when one is broken. Clients reach the
 * gateways as through a load balancer that routes to ready replicas only (as a Kubernetes
 * Service does).
 *
 * Promises checked after each step:
 * - every message acknowledged to its sender is stored exactly once, and none is stored twice;
 * - every queue that stayed valid got every acknowledged message meant for it exactly once, in
 *   order; a queue lost (Redis restart) answers BAD_EVENT_QUEUE_ID and its client re-registers;
 * - every stored message reached every valid queue meant for it exactly once, acknowledged or
 *   not (a sender whose messaging replica died after the commit saw a failure: the transactional
 *   outbox still announces the message);
 * - scheduled messages due during the step are delivered exactly once;
 * - the topic deletion started in the step finishes;
 * - failures only of the kinds the step's fault documents (503 always; the plan says which
 *   others), never a 500 or a hang past the request timeout.
 *
 * Tunable: CHAOS_POLLERS (200), CHAOS_RATE (messages/s, 20), CHAOS_LOG_DIR.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Factory, type TestSystem } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { ServiceName } from '@teamchat/contracts';
import { createUsers, startBenchSystem } from './support';

export const SERVICES: Exclude<ServiceName, 'gateway'>[] = ['users-groups', 'messaging', 'presence', 'scheduler', 'uploads', 'push'];
export const REQUEST_TIMEOUT_MS = 15_000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Reply {
  status: number;
  body: Record<string, unknown>;
  error?: string;
}

/** One HTTP request with a deadline; a connection error or timeout is status 0 with its reason. */
function request(agent: http.Agent, method: string, url: URL, host: string, authorization: string, form?: Record<string, string>): Promise<Reply> {
  return new Promise((resolve) => {
    const payload = form ? Buffer.from(new URLSearchParams(form).toString()) : undefined;
    const req = http.request(
      url,
      {
        method,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          Host: host,
          Authorization: authorization,
          ...(payload ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { unparsed: text.slice(0, 200) };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', (error) => resolve({ status: 0, body: {}, error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, body: {}, error: error.message }));
    req.end(payload);
  });
}

/** Routes to the gateways that answer ready, as a load balancer does; none ready: waits. */
export class Balancer {
  private ready: URL[] = [];
  private turn = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly gateways: URL[]) {}

  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), 200);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Takes a gateway out at once (the pod is terminating: Kubernetes removes its endpoint). */
  drop(url: URL): void {
    this.ready = this.ready.filter((gateway) => gateway.href !== url.href);
  }

  async next(): Promise<URL> {
    for (;;) {
      if (this.ready.length > 0) return this.ready[this.turn++ % this.ready.length];
      await sleep(50);
    }
  }

  private async check(): Promise<void> {
    const answers = await Promise.all(
      this.gateways.map((gateway) =>
        fetch(new URL('/health/ready', gateway), { signal: AbortSignal.timeout(1000) }).then(
          (res) => res.status === 200,
          () => false,
        ),
      ),
    );
    this.ready = this.gateways.filter((_, i) => answers[i]);
  }
}

export interface Sent {
  seq: number;
  content: string;
  recipients: 'channel' | number;
  sentAt: number;
  status: number;
  code?: string;
  error?: string;
  id?: number;
  ackedAt?: number;
  requestId?: string;
}

interface Queue {
  queueId: string;
  lastEventId: number;
  since: number;
  until?: number;
  received: number[];
}

interface Poller {
  userId: number;
  authorization: string;
  queues: Queue[];
  lostQueues: number;
}

/** What a step's fault can use. */
export interface ChaosContext {
  system: TestSystem;
  /** The organization the load runs in. */
  realmId: number;
  gatewayUrls: URL[];
  balancer: Balancer;
  /** Stops a process with the signal, starts it again and waits until it is ready. */
  restart(name: string, signal: NodeJS.Signals): Promise<void>;
  waitReady(name: string, timeoutMs?: number): Promise<void>;
  /** Keeps the process's log so far (before it is restarted). */
  keepLog(name: string): void;
  /** Counts a broken promise the step found itself. */
  markBroken(): void;
}

/** A run: its name, extra settings of the services, its steps in order and what each does. */
export interface ChaosPlan {
  name: string;
  env: Record<string, string>;
  steps: string[];
  stepRuns(context: ChaosContext): Record<string, () => Promise<string>>;
  /** How the services reach the database (through a PgBouncer: PgBouncer.via). */
  databaseVia?: (url: string) => string;
  /** Whether a failed send other than a 503 is of a kind the step's fault documents. */
  documentedFailure(step: string, failure: Pick<Sent, 'status' | 'error'>): boolean;
}

export async function runChaos(plan: ChaosPlan): Promise<void> {
  const pollerCount = Number(process.env.CHAOS_POLLERS ?? 200);
  const rate = Number(process.env.CHAOS_RATE ?? 20);
  // A deployment's shutdown grace (the tests run without): balancers see readiness drop before a gateway closes.
  // Two replicas of six services that own tables: 12 × (4 + 2 + 1) = 84 connections, within
  // Postgres's default 100 (the capacity section of docs/architecture.md: the connection budget).
  const system = await startBenchSystem(
    { AUTH_CACHE_TTL_SECONDS: '5', EVENT_HEARTBEAT_SECONDS: '20', SHUTDOWN_GRACE_SECONDS: '2', DATABASE_POOL_SIZE: '4', DATABASE_COLD_POOL_SIZE: '2', ...plan.env },
    2,
    plan.databaseVia,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: pollerCount + 64 });
  const table: string[][] = [];
  let broken = 0;
  let keepLogs = () => undefined as void;
  try {
    for (const service of SERVICES) await waitUntilReady(system, await system.startReplica(service));
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'chaos' });
    const owner = await factory.user(realm, { fullName: 'Owner', role: Role.OWNER });
    const channel = await factory.channel(realm, { name: 'chaos', subscribers: [owner] });
    const host = system.api.hostFor('chaos');
    const users = await createUsers(system, realm.id, channel.id, pollerCount + 4);
    const dbUsers = await system.db.user.findMany({ where: { realmId: realm.id, deliveryEmail: { in: users.map((user) => user.email) } } });
    const idOf = new Map(dbUsers.map((user) => [user.deliveryEmail, user.id]));
    const auth = (user: { email: string; apiKey: string }) => `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
    const senders = users.slice(0, 4).map((user) => ({ id: idOf.get(user.email)!, authorization: auth(user) }));
    const ownerAuth = `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}`;

    const gatewayUrls = system.gatewayNames.map((name) => new URL(`http://127.0.0.1:${system.ports[name]}`));
    const balancer = new Balancer(gatewayUrls);
    await balancer.start();
    const call = async (method: string, path: string, authorization: string, form?: Record<string, string>) =>
      request(agent, method, new URL(path, await balancer.next()), host, authorization, form);

    // Event queues, each long-polled by its own client until the run ends.
    const pollers: Poller[] = users.slice(4).map((user) => ({ userId: idOf.get(user.email)!, authorization: auth(user), queues: [], lostQueues: 0 }));
    const register = async (poller: Poller): Promise<void> => {
      for (;;) {
        const reply = await call('POST', '/api/v1/register', poller.authorization, { event_types: '["message"]' });
        if (reply.status === 200) {
          poller.queues.push({ queueId: reply.body.queue_id as string, lastEventId: reply.body.last_event_id as number, since: Date.now(), received: [] });
          return;
        }
        await sleep(500);
      }
    };
    let running = true;
    const poll = async (poller: Poller): Promise<void> => {
      while (running) {
        const queue = poller.queues[poller.queues.length - 1];
        const reply = await call('GET', `/api/v1/events?queue_id=${queue.queueId}&last_event_id=${queue.lastEventId}`, poller.authorization);
        if (reply.status === 200) {
          for (const event of reply.body.events as { id: number; type: string; message?: { id: number } }[]) {
            queue.lastEventId = Math.max(queue.lastEventId, event.id);
            if (event.type === 'message') queue.received.push(event.message!.id);
          }
        } else if (reply.body.code === 'BAD_EVENT_QUEUE_ID') {
          queue.until = Date.now();
          poller.lostQueues++;
          await register(poller);
        } else {
          await sleep(200); // a gateway going away, a dependency down: poll again
        }
      }
    };
    console.log(`${plan.name}: ${pollerCount} queues…`);
    for (let i = 0; i < pollers.length; i += 50) await Promise.all(pollers.slice(i, i + 50).map(register));
    const polling = pollers.map((poller) => poll(poller));

    // Senders: channel messages, and every tenth a direct message to one of the pollers.
    const sent: Sent[] = [];
    let seq = 0;
    const sending = (async () => {
      const interval = 1000 / rate;
      let due = Date.now();
      const inFlight = new Set<Promise<void>>();
      while (running) {
        const n = seq++;
        const sender = senders[n % senders.length];
        const toPoller = n % 10 === 9 ? pollers[n % pollers.length] : undefined;
        const content = `chaos message ${n}`;
        const form: Record<string, string> = toPoller
          ? { type: 'direct', to: JSON.stringify([toPoller.userId]), content }
          : { type: 'stream', to: 'chaos', topic: 'load', content };
        const record: Sent = { seq: n, content, recipients: toPoller ? toPoller.userId : 'channel', sentAt: Date.now(), status: 0 };
        sent.push(record);
        const job = call('POST', '/api/v1/messages', sender.authorization, form).then((reply) => {
          record.status = reply.status;
          record.code = reply.body.code as string | undefined;
          record.error = reply.error;
          record.requestId = reply.body.request_id as string | undefined;
          if (reply.status === 200) {
            record.id = reply.body.id as number;
            record.ackedAt = Date.now();
          }
        });
        inFlight.add(job);
        void job.finally(() => inFlight.delete(job));
        due += interval;
        await sleep(Math.max(0, due - Date.now()));
      }
      await Promise.all(inFlight);
    })();
    const typing = (async () => {
      while (running) {
        await call('POST', '/api/v1/typing', senders[0].authorization, { op: 'start', type: 'stream', stream_id: String(channel.id), topic: 'load' });
        await sleep(1000);
      }
    })();

    const waitReady = (name: string, timeoutMs?: number) => waitUntilReady(system, name, timeoutMs);
    // Every process's log, kept across restarts, in CHAOS_LOG_DIR.
    const logDir = process.env.CHAOS_LOG_DIR ?? path.join(os.tmpdir(), `teamchat-${plan.name}`);
    mkdirSync(logDir, { recursive: true });
    const keepLog = (name: string) => appendFileSync(path.join(logDir, `${name}.log`), system.logOf(name as never));
    keepLogs = () => [...system.pids().keys()].forEach((name) => keepLog(name));
    console.log(`${plan.name}: process logs in ${logDir}`);
    const restart = async (name: string, signal: NodeJS.Signals) => {
      const gateway = gatewayUrls.find((url) => url.port === String(system.ports[name as keyof typeof system.ports]));
      if (gateway && signal === 'SIGTERM') balancer.drop(gateway);
      await system.stopService(name as never, signal);
      keepLog(name);
      await system.startService(name as never, false);
      await waitReady(name);
    };

    /** Schedules messages due a few seconds into the step; checked after it. */
    const schedule = async (label: string, count: number, inSeconds: number) => {
      const contents: string[] = [];
      for (let i = 0; i < count; i++) {
        const content = `chaos scheduled ${label} ${i}`;
        const reply = await call('POST', '/api/v1/scheduled_messages', ownerAuth, {
          type: 'stream',
          to: String(channel.id),
          topic: 'scheduled',
          content,
          scheduled_delivery_timestamp: String(Math.ceil(Date.now() / 1000) + inSeconds + i),
        });
        if (reply.status === 200) contents.push(content);
      }
      return contents;
    };
    /** A topic with messages, whose deletion is started in the step. */
    const doomedTopic = async (label: string) => {
      const topic = `doomed ${label}`;
      for (let i = 0; i < 100; i++) await call('POST', '/api/v1/messages', ownerAuth, { type: 'stream', to: 'chaos', topic, content: `doomed ${i}` });
      return topic;
    };
    const deleteTopic = async (topic: string, deadlineMs: number): Promise<boolean> => {
      while (Date.now() < deadlineMs) {
        const reply = await call('POST', `/api/v1/streams/${channel.id}/delete_topic`, ownerAuth, { topic_name: topic });
        if (reply.status === 200 && reply.body.complete === true) return true;
        await sleep(1000);
      }
      return false;
    };

    const stepRuns = plan.stepRuns({ system, realmId: realm.id, gatewayUrls, balancer, restart, waitReady, keepLog, markBroken: () => void broken++ });

    await sleep(3000);
    for (const step of plan.steps) {
      const run = stepRuns[step];
      if (!run) throw new Error(`unknown step ${step}`);
      console.log(`\n${plan.name} step: ${step}`);
      const firstSeq = seq;
      const topic = await doomedTopic(step);
      const scheduled = await schedule(step, 5, 5);
      const deletion = deleteTopic(topic, Date.now() + 180_000);
      const started = Date.now();
      const summary = await run();
      const topicDeleted = await deletion;
      await sleep(35_000); // let stragglers arrive: retries, the scheduler's recovery sweep (30 s)
      const lastSeq = seq;
      // The window's last sends are answered and delivered before anything is judged.
      await sleep(REQUEST_TIMEOUT_MS + 1000);
      const result = await check(system, realm.id, sent.filter((s) => s.seq >= firstSeq && s.seq < lastSeq), pollers, scheduled, step);
      const ok = result.problems.length === 0 && topicDeleted;
      if (!ok) broken++;
      console.log(`  ${summary}`);
      console.log(`  sends: ${result.acked} acknowledged, ${result.failed} failed (${result.failureKinds || 'none'}), ${result.storedUnacknowledged} of them stored all the same`);
      console.log(`  unacknowledged but stored: ${result.unacknowledgedDeliveries} deliveries of them, each once`);
      console.log(`  queues: ${result.queuesChecked} checked in full, ${result.deliveries} deliveries, ${result.lost} lost and re-registered`);
      console.log(`  scheduled: ${result.scheduledOnce}/${scheduled.length} delivered exactly once; topic deletion ${topicDeleted ? 'finished' : 'DID NOT FINISH'}`);
      for (const problem of result.problems.slice(0, 20)) console.log(`  BROKEN: ${problem}`);
      table.push([
        step,
        String(result.acked),
        String(result.failed),
        String(result.storedUnacknowledged),
        result.failureKinds || '-',
        `${result.queuesChecked}/${pollers.length}`,
        String(result.lost),
        `${result.scheduledOnce}/${scheduled.length}`,
        topicDeleted ? 'yes' : 'NO',
        `${((Date.now() - started) / 1000).toFixed(0)} s`,
        ok ? 'kept' : 'BROKEN',
      ]);
    }
    running = false;
    await Promise.all([sending, typing, ...polling.map((p) => Promise.race([p, sleep(REQUEST_TIMEOUT_MS)]))]);
    balancer.stop();
  } finally {
    keepLogs();
    agent.destroy();
    await system.stop().catch(() => undefined);
  }
  const header = ['step', 'acked', 'failed', 'failed but stored', 'failures', 'queues in full', 'queues lost', 'scheduled once', 'topic deleted', 'took', 'promises'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  console.log(`\n${line(header)}\n${table.map(line).join('\n')}`);
  if (broken > 0) {
    console.log(`\n${broken} step(s) broke a promise`);
    process.exitCode = 1;
  }

  async function check(system: TestSystem, realmId: number, window: Sent[], pollers: Poller[], scheduled: string[], step: string) {
    const problems: string[] = [];
    const stored = await system.db.$queryRawUnsafe<{ content: string; ids: number[] }[]>(
      `SELECT content, array_agg(id ORDER BY id) AS ids FROM messages WHERE realm_id = $1 AND content LIKE 'chaos %' GROUP BY content`,
      realmId,
    );
    const byContent = new Map(stored.map((row) => [row.content, row.ids]));
    const acked = window.filter((s) => s.status === 200);
    const failed = window.filter((s) => s.status !== 200);
    for (const s of acked) {
      const ids = byContent.get(s.content) ?? [];
      if (ids.length !== 1 || ids[0] !== s.id) problems.push(`acknowledged message ${s.seq} stored as ${JSON.stringify(ids)}`);
    }
    for (const s of failed) {
      const ids = byContent.get(s.content) ?? [];
      if (ids.length > 1) problems.push(`failed message ${s.seq} stored ${ids.length} times`);
    }
    const kinds = new Map<string, number>();
    for (const s of failed) {
      const kind = s.status === 0 ? `cut: ${s.error}` : `${s.status} ${s.code ?? ''}`.trim();
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const documented = s.status === 503 || plan.documentedFailure(step, s);
      if (step === 'roll' || !documented) problems.push(`send ${s.seq} failed: ${s.status} ${s.code ?? ''} ${s.error ?? ''} ${s.requestId ?? ''}`.trim());
    }
    // Failed sends whose message was stored all the same (the replica died after the commit).
    const storedUnacknowledged = failed.flatMap((s) => {
      const ids = byContent.get(s.content) ?? [];
      return ids.length === 1 ? [{ ...s, id: ids[0] }] : [];
    });
    let unacknowledgedDeliveries = 0;
    let queuesChecked = 0;
    let deliveries = 0;
    let lost = 0;
    const windowStart = window[0]?.sentAt ?? Date.now();
    for (const poller of pollers) {
      for (const queue of poller.queues) {
        if (queue.until !== undefined && queue.until >= windowStart) lost++;
        const valid = queue.since <= windowStart && queue.until === undefined;
        const ids = queue.received;
        const seen = new Map<number, number>();
        ids.forEach((id, position) => {
          if (seen.has(id)) problems.push(`queue ${queue.queueId} got message ${id} twice`);
          seen.set(id, position);
        });
        // In order: a message acknowledged before another was sent comes first.
        const mine = acked.filter((s) => seen.has(s.id!));
        const byAck = [...mine].sort((a, b) => a.ackedAt! - b.ackedAt!);
        let ackIndex = 0;
        let latest = -1;
        let latestSeq = -1;
        for (const s of [...mine].sort((a, b) => a.sentAt - b.sentAt)) {
          while (ackIndex < byAck.length && byAck[ackIndex].ackedAt! < s.sentAt) {
            const position = seen.get(byAck[ackIndex].id!)!;
            if (position > latest) [latest, latestSeq] = [position, byAck[ackIndex].seq];
            ackIndex++;
          }
          if (seen.get(s.id!)! < latest) problems.push(`queue ${queue.queueId} got message ${s.seq} before ${latestSeq}, acknowledged before it was sent`);
        }
        if (!valid) continue;
        queuesChecked++;
        for (const s of acked) {
          if (s.recipients !== 'channel' && s.recipients !== poller.userId) continue;
          if (!seen.has(s.id!)) problems.push(`queue ${queue.queueId} never got acknowledged message ${s.seq} (id ${s.id})`);
          else deliveries++;
        }
        for (const s of storedUnacknowledged) {
          if (s.recipients !== 'channel' && s.recipients !== poller.userId) continue;
          if (!seen.has(s.id)) problems.push(`queue ${queue.queueId} never got message ${s.seq} (id ${s.id}), stored though its send failed`);
          else unacknowledgedDeliveries++;
        }
      }
    }
    let scheduledOnce = 0;
    for (const content of scheduled) {
      const count = (byContent.get(content) ?? []).length;
      if (count === 1) scheduledOnce++;
      else problems.push(`scheduled "${content}" delivered ${count} times`);
    }
    const failureKinds = [...kinds].map(([kind, n]) => `${n}× ${kind}`).join(', ');
    return { problems, acked: acked.length, failed: failed.length, storedUnacknowledged: storedUnacknowledged.length, unacknowledgedDeliveries, failureKinds, queuesChecked, deliveries, lost, scheduledOnce };
  }
}

export async function readiness(url: URL): Promise<boolean> {
  return fetch(new URL('/health/ready', url), { signal: AbortSignal.timeout(2000) }).then(
    (res) => res.status === 200,
    () => false,
  );
}

/** Waits until one process answers ready on its own port. */
export async function waitUntilReady(system: TestSystem, name: string, timeoutMs = 60_000): Promise<void> {
  const url = new URL(`http://127.0.0.1:${system.ports[name as keyof typeof system.ports]}`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await readiness(url)) return;
    await sleep(100);
  }
  throw new Error(`${name} not ready after ${timeoutMs} ms:\n${system.logOf(name as never).slice(-1500)}`);
}

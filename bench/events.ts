/**
 * `npm run bench:events`: 1,000 users subscribed to one channel, each with an event queue that
 * a client long-polls, while one sender posts to the channel at fixed rates. The same client
 * drives, in the same run, the **floor** (bench/floor-server.ts: one Node process,
 * `node:http`, queues in memory, no database or broker: the least long-polling can cost here)
 * and the system as `npm start` runs it (one gateway; BENCH_GATEWAYS=2 spreads the queues over
 * two replicas), rate by rate, the floor then the project at each rate: what the machine has to
 * spare drifts over minutes (it shares its host), and measured a few seconds apart the two
 * meet the same machine. Prints, per rate and for each, the send-to-delivery latency over all queues
 * (p50/p95/p99) and what was dropped, per message its first delivery's latency and the spread to
 * its last (the pipeline before any answer, and the answers' burst), then the project's p99 as a multiple of the floor's, each
 * process's CPU and the server side's CPU per delivery.
 * Before the first rate, each target gets the same unmeasured warm-up: BENCH_WARMUP_SECONDS (3)
 * at 10 messages/s, so what a server pays once (its code compiled, its caches filled, its
 * statements planned) is not counted as the first rate's latency.
 * Tunable: BENCH_USERS (1000), BENCH_RATES (comma-separated messages/s: 10,20,50,100),
 * BENCH_SECONDS per rate (10), BENCH_GRACE_SECONDS to wait for stragglers (5), BENCH_GATEWAYS
 * (1), BENCH_FLOOR=0 to skip the floor, BENCH_FLOOR_SERVER=net for the floor without node:http
 * (bench/floor-net-server.ts), BENCH_PROJECT=0 for the floor alone, BENCH_WARMUP_SECONDS (0: none),
 * BENCH_FLOOR_DURABLE=1 for a third target, the floor with Postgres and Redis before each answer
 * (bench/floor-durable.ts); EVENT_FANOUT_MAX_IN_FLIGHT is passed on to the gateways.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Factory, TEST_REDIS_URL, dropTestDatabase, type TestSystem } from '@teamchat/testing';
import { PollConnection } from './poll-connection';
import { cpuSnapshot, cpuUsed, printCpu, type CpuSnapshot } from './process-cpu';
import { createBenchDatabase, createUsers, percentile, postForm, runBenchmark, seedHistory, startBenchSystem } from './support';

interface Client {
  authorization: string;
  queueId: string;
  gateway: URL;
  lastEventId: number;
  connection: PollConnection;
}

/** What the load runs against: where to register and poll (per client), where to send, and whose CPU counts. */
interface Target {
  name: string;
  host: string;
  gateways: URL[];
  users: { email: string; apiKey: string }[];
  sender: { email: string; apiKey: string };
  /** The server side's processes (name → pid), for CPU accounting. */
  pids(): Map<string, number>;
}

interface RateResult {
  rate: number;
  sent: number;
  expected: number;
  delivered: number;
  sendErrors: number;
  p50: number;
  p95: number;
  p99: number;
  /** How long the sends themselves took (POST /messages answered), p50 and p99. */
  sendP50: number;
  sendP99: number;
  cpuPerDeliveryUs: number;
  /** The kernel's part of it (system calls: the sockets' reads and writes, mostly). */
  kernelPerDeliveryUs: number;
  /** Deliveries per answered poll: above 1 where a poll finds several events waiting. */
  perPoll: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const basic = (user: { email: string; apiKey: string }) => `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;

const settings = () => ({
  userCount: Number(process.env.BENCH_USERS ?? 1000),
  rates: (process.env.BENCH_RATES ?? '10,20,50,100').split(',').map(Number),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  graceMs: Number(process.env.BENCH_GRACE_SECONDS ?? 5) * 1000,
  warmUpSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
});

/** A target with its queues registered, polled and warmed up: measured one rate at a time. */
interface Session {
  /** Sends at `rate` for BENCH_SECONDS and waits for the deliveries; returns and keeps the row. */
  measure(rate: number): Promise<RateResult>;
  /** Prints every row measured, then each process's CPU at each rate. */
  report(): void;
  /** The rows measured, in order. */
  results: RateResult[];
  close(): Promise<void>;
}

/** Registers a queue per user, long-polls them all, warms the target up. */
async function open(target: Target): Promise<Session> {
  const { seconds, graceMs, warmUpSeconds } = settings();
  // Registrations (50 at a time) and sends only: each client polls on a connection of its own.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let stopping = false;
  const clients: Client[] = [];
  for (let i = 0; i < target.users.length; i += 50) {
    clients.push(
      ...(await Promise.all(
        target.users.slice(i, i + 50).map(async (user, j) => {
          const authorization = basic(user);
          const gateway = target.gateways[(i + j) % target.gateways.length];
          const res = await postForm(agent, new URL('/api/v1/register', gateway), target.host, authorization, {
            event_types: '["message"]',
            fetch_event_types: '[]',
            apply_markdown: 'false',
          });
          if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body}`);
          const queueId = (JSON.parse(res.body) as { queue_id: string }).queue_id;
          return { authorization, queueId, gateway, lastEventId: -1, connection: new PollConnection(Number(gateway.port), target.host, authorization) };
        }),
      )),
    );
  }

  // Every delivery: the latency from just before the send to the moment the client had it.
  let latencies: number[] = [];
  /** The same latencies by the second of the rate's sending they were sent in (see measure). */
  let bySecond: number[][] = [];
  /** Per message (its content's `sent … #n`): its first and last delivery's latency, the pipeline before the answers and the answers' burst. */
  let perMessage = new Map<string, { first: number; last: number }>();
  let measuredFrom = 0;
  let delivered = 0;
  let answered = 0;
  let pollErrors = 0;
  /** What the failed polls were: a status with the answer's `code`, or the connection's error. */
  const pollFailures = new Map<string, number>();
  const failed = (what: string) => {
    pollErrors++;
    pollFailures.set(what, (pollFailures.get(what) ?? 0) + 1);
  };
  const poll = async (client: Client) => {
    while (!stopping) {
      try {
        const res = await client.connection.get(`/api/v1/events?queue_id=${client.queueId}&last_event_id=${client.lastEventId}`);
        if (res.status !== 200) {
          failed(`${res.status} ${/"code":"([A-Z_]+)"/.exec(res.body)?.[1] ?? ''}`.trim());
          await sleep(500);
          continue;
        }
        const now = Date.now();
        answered++;
        const { events } = JSON.parse(res.body) as { events: { id: number; type: string; message?: { content: string } }[] };
        for (const event of events) {
          client.lastEventId = event.id;
          const sent = event.type === 'message' ? /^sent (\d+) #\d+/.exec(event.message!.content) : null;
          const sentAt = Number(sent?.[1]);
          if (sent && !Number.isNaN(sentAt)) {
            latencies.push(now - sentAt);
            const spread = perMessage.get(sent[0]);
            if (spread) spread.last = Math.max(spread.last, now - sentAt);
            else perMessage.set(sent[0], { first: now - sentAt, last: now - sentAt });
            (bySecond[Math.max(0, Math.floor((sentAt - measuredFrom) / 1000))] ??= []).push(now - sentAt);
            delivered++;
          }
        }
      } catch (error) {
        if (!stopping) failed((error as Error).message);
        await sleep(500);
      }
    }
  };
  const polling = clients.map(poll);
  await sleep(1000);

  const senderAuth = basic(target.sender);
  const sendUrl = new URL('/api/v1/messages', target.gateways[0]);
  /** Sends `rate` messages a second for `seconds` to `topic`, each on schedule; resolves once every send is answered. */
  const sendAt = async (rate: number, seconds: number, topic: string) => {
    let sent = 0;
    let sendErrors = 0;
    const sends: Promise<void>[] = [];
    const sendTimes: number[] = [];
    const started = Date.now();
    const total = Math.round(rate * seconds);
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      sent++;
      const sentAt = Date.now();
      sends.push(
        postForm(agent, sendUrl, target.host, senderAuth, { type: 'stream', to: 'bench', topic, content: `sent ${sentAt} #${n}` }).then(
          (res) => void (sendTimes.push(Date.now() - sentAt), res.status === 200 || sendErrors++),
          () => void sendErrors++,
        ),
      );
    }
    await Promise.all(sends);
    return { sent, sendErrors, sendTimes, started };
  };
  /** Waits until `expected` deliveries have arrived, or the grace time has passed. */
  const settle = async (expected: number) => {
    const waitUntil = Date.now() + graceMs;
    while (delivered < expected && Date.now() < waitUntil) await sleep(100);
  };

  // A warm-up first, the same for every target and not measured: what a server pays once
  // (compiling its code, filling its caches, Postgres planning its statements) rather than per message.
  if (warmUpSeconds > 0) {
    delivered = 0;
    const { sent, sendErrors } = await sendAt(10, warmUpSeconds, 'warm-up');
    await settle((sent - sendErrors) * clients.length);
    await sleep(1000);
  }

  const results: RateResult[] = [];
  const cpu: { rate: number; before: CpuSnapshot; after: CpuSnapshot; seconds: number }[] = [];
  const rowText = (row: RateResult) =>
    `  ${String(row.rate).padStart(10)}   ${String(row.sent).padStart(4)}   ${String(row.expected).padStart(12)}/${String(row.delivered).padEnd(9)}   ${String(row.expected - row.delivered).padStart(7)}   ${row.p50.toFixed(0).padStart(6)}   ${row.p95.toFixed(0).padStart(6)}   ${row.p99.toFixed(0).padStart(6)}   ${String(row.sendErrors).padStart(11)}   ${`${row.sendP50.toFixed(0)} / ${row.sendP99.toFixed(0)}`.padStart(15)}   ${row.cpuPerDeliveryUs.toFixed(0).padStart(18)}   ${row.perPoll.toFixed(2).padStart(15)}`;
  const header = '  rate msg/s   sent   deliveries expected/got   dropped   p50 ms   p95 ms   p99 ms   send errors   send p50/p99 ms   server µs/delivery   deliveries/poll';

  const measure = async (rate: number): Promise<RateResult> => {
    const before = cpuSnapshot(target.pids());
    latencies = [];
    bySecond = [];
    perMessage = new Map();
    measuredFrom = Date.now();
    delivered = 0;
    answered = 0;
    const { sent, sendErrors, sendTimes, started } = await sendAt(rate, seconds, `rate ${rate}`);
    const expected = (sent - sendErrors) * clients.length;
    await settle(expected);
    const after = cpuSnapshot(target.pids());
    cpu.push({ rate, before, after, seconds: (Date.now() - started) / 1000 });
    // The server side: every process but the bench client.
    const server = cpuUsed(before, after).filter(([name]) => name !== 'bench client');
    const serverCpu = server.reduce((sum, [, cpu]) => sum + cpu.total, 0);
    const serverKernel = server.reduce((sum, [, cpu]) => sum + cpu.kernel, 0);
    const sorted = [...latencies].sort((a, b) => a - b);
    const row = {
      rate,
      sent,
      expected,
      delivered,
      sendErrors,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      sendP50: percentile([...sendTimes].sort((a, b) => a - b), 50),
      sendP99: percentile([...sendTimes].sort((a, b) => a - b), 99),
      cpuPerDeliveryUs: (serverCpu / Math.max(delivered, 1)) * 1e6,
      kernelPerDeliveryUs: (serverKernel / Math.max(delivered, 1)) * 1e6,
      perPoll: delivered / Math.max(answered, 1),
    };
    results.push(row);
    console.log(`  ${target.name} at ${rate} messages/s: p50 ${row.p50.toFixed(0)} ms, p99 ${row.p99.toFixed(0)} ms, ${row.delivered} of ${row.expected} delivered`);
    // Where in the run the slow deliveries were: a slow start is a cache or a connection, a slow end a backlog.
    const secondP99 = (values: number[] = []) => (values.length === 0 ? '-' : percentile([...values].sort((a, b) => a - b), 99).toFixed(0));
    console.log(`    p99 ms by second sent: ${Array.from({ length: bySecond.length }, (_, i) => secondP99(bySecond[i])).join(' ')}`);
    const firsts = [...perMessage.values()].map((m) => m.first).sort((a, b) => a - b);
    const bursts = [...perMessage.values()].map((m) => m.last - m.first).sort((a, b) => a - b);
    console.log(
      `    per message: first delivery p50/p99 ${percentile(firsts, 50).toFixed(0)}/${percentile(firsts, 99).toFixed(0)} ms (send to the first answer), first to last p50/p99 ${percentile(bursts, 50).toFixed(0)}/${percentile(bursts, 99).toFixed(0)} ms (the answers)`,
    );
    await sleep(1000);
    return row;
  };

  const report = () => {
    console.log(`\n${target.name}: ${clients.length} queues on ${target.gateways.length} server(s); sending for ${seconds} s per rate\n`);
    console.log(header);
    for (const row of results) console.log(rowText(row));
    console.log(`  poll errors: ${pollErrors}${pollErrors > 0 ? ` (${[...pollFailures].map(([what, count]) => `${what}: ${count}`).join(', ')})` : ''}`);
    for (const { rate, before, after, seconds: elapsed } of cpu) {
      console.log(`\n  at ${rate} messages/s:`);
      printCpu(before, after, elapsed);
      const gateways = cpuUsed(before, after).filter(([name]) => name.startsWith('gateway'));
      const gatewayCpu = gateways.reduce((sum, [, cpu]) => sum + cpu.total, 0);
      const gatewayKernel = gateways.reduce((sum, [, cpu]) => sum + cpu.kernel, 0);
      const got = Math.max(results.find((r) => r.rate === rate)?.delivered ?? 0, 1);
      if (gatewayCpu > 0) {
        console.log(
          `    gateways' CPU per delivery (fan-out, append, poll, answer): ${((gatewayCpu / got) * 1e6).toFixed(0)} µs, of which the kernel's ${((gatewayKernel / got) * 1e6).toFixed(0)} µs`,
        );
      }
    }
  };

  const close = async () => {
    stopping = true;
    agent.destroy();
    for (const client of clients) client.connection.close();
    await Promise.race([Promise.allSettled(polling), sleep(1000)]);
  };
  return { measure, report, results, close };
}

/**
 * The floor server as its own process, and a target for it. `durable`: the durable floor
 * (bench/floor-durable.ts), on a database of its own, dropped on stop.
 */
async function startFloor(userCount: number, durable = false): Promise<Target & { stop(): Promise<void> }> {
  // BENCH_NODE_ARGS reach the floor too (as the services): `--cpu-prof` compares their profiles.
  const only = process.env.BENCH_NODE_ARGS_SERVICES?.split(',');
  const nodeArgs = !only || only.includes('floor') ? (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];
  const bare = !durable && process.env.BENCH_FLOOR_SERVER === 'net';
  const database = durable ? await createBenchDatabase() : undefined;
  const env = database ? { ...process.env, FLOOR_DATABASE_URL: database.url, FLOOR_REDIS_URL: TEST_REDIS_URL, FLOOR_REDIS_PREFIX: `${database.name}:` } : process.env;
  const child = spawn(process.execPath, [...nodeArgs, path.join(__dirname, bare ? 'floor-net-server.js' : 'floor-server.js')], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`floor server exited (${code})`)));
  });
  const users = Array.from({ length: userCount }, (_, i) => ({ email: `floor-${i}@example.test`, apiKey: 'floor' }));
  const name = durable ? 'durable floor' : 'floor';
  return {
    name: durable ? 'durable floor (one process, Postgres and Redis before answering)' : `floor (one process, in memory${bare ? ', bare sockets' : ''})`,
    host: '127.0.0.1',
    gateways: [new URL(`http://127.0.0.1:${port}`)],
    users,
    sender: { email: 'sender@example.test', apiKey: 'floor' },
    pids: () => new Map([[name, child.pid!]]),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      if (database) await dropTestDatabase(database.name);
    },
  };
}

async function main() {
  const { userCount, rates } = settings();
  const gatewayCount = Number(process.env.BENCH_GATEWAYS ?? 1);
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const floorTarget = process.env.BENCH_FLOOR !== '0' ? await startFloor(userCount) : undefined;
    if (floorTarget) stops.push(() => floorTarget.stop());
    const durableTarget = process.env.BENCH_FLOOR_DURABLE === '1' ? await startFloor(userCount, true) : undefined;
    if (durableTarget) stops.push(() => durableTarget.stop());
    let projectTarget: Target | undefined;
    let system: TestSystem | undefined;
    if (process.env.BENCH_PROJECT !== '0') {
      const inFlight = process.env.EVENT_FANOUT_MAX_IN_FLIGHT;
      const started = await startBenchSystem(
        { EVENT_HEARTBEAT_SECONDS: '45', ...(inFlight ? { EVENT_FANOUT_MAX_IN_FLIGHT: inFlight } : {}) },
        gatewayCount,
      );
      system = started;
      stops.push(() => started.stop());
      const factory = new Factory(started.db);
      const realm = await factory.organization({ subdomain: 'bench' });
      const sender = await factory.user(realm, { fullName: 'Sender' });
      const channel = await factory.channel(realm, { name: 'bench', subscribers: [sender] });
      console.log(`\nbench:events  setting up ${userCount} users and queues…`);
      const users = await createUsers(started, realm.id, channel.id, userCount);
      await seedHistory(started, channel.id, sender.id, 200);
      projectTarget = {
        name: `the project (${gatewayCount} gateway${gatewayCount > 1 ? 's' : ''})`,
        host: started.api.hostFor('bench'),
        gateways: Array.from({ length: gatewayCount }, (_, i) => new URL(started.apiVia(i).baseUrl)),
        users,
        sender,
        pids: () => started.pids(),
      };
    }

    const floor = floorTarget ? await open(floorTarget) : undefined;
    if (floor) stops.unshift(() => floor.close());
    const durableFloor = durableTarget ? await open(durableTarget) : undefined;
    if (durableFloor) stops.unshift(() => durableFloor.close());
    const project = projectTarget ? await open(projectTarget) : undefined;
    if (project) stops.unshift(() => project.close());
    console.log('');
    for (const rate of rates) {
      await floor?.measure(rate);
      await durableFloor?.measure(rate);
      await project?.measure(rate);
    }
    floor?.report();
    durableFloor?.report();
    project?.report();
    if (system) await printFanout(system, gatewayCount);
    if (floor && project) compare(floor.results, project.results);
    if (durableFloor && project) compare(durableFloor.results, project.results, 'the durable floor');
  } finally {
    for (const stop of stops) await stop();
  }
}

/** The gateways' own account (on /metrics) of the fan-out and of their credential checks. */
async function printFanout(system: TestSystem, gatewayCount: number): Promise<void> {
  let count = 0;
  let sum = 0;
  let lagCount = 0;
  let lagSum = 0;
  // How often the gateways had credentials checked (each call checks all those due at once).
  let checks = 0;
  for (let i = 0; i < gatewayCount; i++) {
    const text = await (await fetch(new URL('/metrics', system.apiVia(i).baseUrl))).text();
    count += Number(/^event_fanout_duration_seconds_count\{outcome="ok"\} (\S+)/m.exec(text)?.[1] ?? 0);
    sum += Number(/^event_fanout_duration_seconds_sum\{outcome="ok"\} (\S+)/m.exec(text)?.[1] ?? 0);
    lagCount += Number(/^event_fanout_lag_seconds_count (\S+)/m.exec(text)?.[1] ?? 0);
    lagSum += Number(/^event_fanout_lag_seconds_sum (\S+)/m.exec(text)?.[1] ?? 0);
    for (const [, calls] of text.matchAll(/^command_call_duration_seconds_count\{subject="[^"]*users-groups\.authenticate_many\.v1",outcome="[^"]*"\} (\d+)$/gm)) checks += Number(calls);
  }
  console.log(`\n  fan-out: ${count} batches of domain events, ${((sum / Math.max(count, 1)) * 1000).toFixed(1)} ms each on average`);
  console.log(`  domain events waited ${((lagSum / Math.max(lagCount, 1)) * 1000).toFixed(1)} ms on average from publication to fan-out (${lagCount} events)`);
  console.log(`  credential checks: ${checks} calls to users-groups`);
}

/** The project's rows against a floor's, rate by rate. */
function compare(floor: RateResult[], project: RateResult[], which = 'the floor'): void {
  console.log(`\nproject against ${which}${which === 'the floor' ? ' (p99 ratio: the goal is at most 2× at 10, 20 and 50 messages/s)' : ''}\n`);
  console.log('  rate msg/s   floor p50/p99 ms   project p50/p99 ms   p99 ratio   delivered floor/project   server µs/delivery floor/project   of which kernel floor/project');
  for (const mine of project) {
    const theirs = floor.find((row) => row.rate === mine.rate);
    if (!theirs) continue;
    const share = (row: RateResult) => `${((100 * row.delivered) / Math.max(row.expected, 1)).toFixed(0)}%`;
    console.log(
      `  ${String(mine.rate).padStart(10)}   ${`${theirs.p50.toFixed(0)} / ${theirs.p99.toFixed(0)}`.padStart(16)}   ${`${mine.p50.toFixed(0)} / ${mine.p99.toFixed(0)}`.padStart(18)}   ${(mine.p99 / theirs.p99).toFixed(1).padStart(8)}×   ${`${share(theirs)} / ${share(mine)}`.padStart(23)}   ${`${theirs.cpuPerDeliveryUs.toFixed(0)} / ${mine.cpuPerDeliveryUs.toFixed(0)}`.padStart(30)}   ${`${theirs.kernelPerDeliveryUs.toFixed(0)} / ${mine.kernelPerDeliveryUs.toFixed(0)}`.padStart(29)}`,
    );
  }
}

runBenchmark(main);

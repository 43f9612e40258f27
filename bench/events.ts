/**
 * `npm run bench:events`: 1,000 users subscribed to one channel, each with an event queue that
 * a client long-polls (spread over two gateway replicas), while one sender posts to the channel
 * at fixed rates. Prints, per rate, the send-to-delivery latency over all queues (p50/p95/p99)
 * and what was dropped, then the highest rate sustained: every delivery arrived and p99 stayed
 * under BENCH_SUSTAINED_P99_MS (a backlog that keeps growing is not sustained).
 * Tunable: BENCH_USERS (1000), BENCH_RATES (comma-separated messages/s: 1,2,5,10,20),
 * BENCH_SECONDS per rate (10), BENCH_GRACE_SECONDS to wait for stragglers (5),
 * BENCH_SUSTAINED_P99_MS (5000); EVENT_FANOUT_MAX_IN_FLIGHT is passed on to the gateways.
 */
import http from 'node:http';
import { Factory } from '@teamchat/testing';
import { cpuSnapshot, printCpu, type CpuSnapshot } from './process-cpu';
import { createUsers, percentile, postForm, runBenchmark, startBenchSystem } from './support';

interface Client {
  authorization: string;
  queueId: string;
  gateway: URL;
  lastEventId: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function getJson(agent: http.Agent, url: URL, host: string, authorization: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'GET', agent, headers: { Host: host, Authorization: authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const userCount = Number(process.env.BENCH_USERS ?? 1000);
  const rates = (process.env.BENCH_RATES ?? '1,2,5,10,20').split(',').map(Number);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const graceMs = Number(process.env.BENCH_GRACE_SECONDS ?? 5) * 1000;
  const sustainedP99Ms = Number(process.env.BENCH_SUSTAINED_P99_MS ?? 5000);
  const inFlight = process.env.EVENT_FANOUT_MAX_IN_FLIGHT;
  const system = await startBenchSystem(
    { AUTH_CACHE_TTL_SECONDS: '60', EVENT_HEARTBEAT_SECONDS: '45', ...(inFlight ? { EVENT_FANOUT_MAX_IN_FLIGHT: inFlight } : {}) },
    2,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: userCount + 64 });
  let stopping = false;
  try {
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'bench' });
    const sender = await factory.user(realm, { fullName: 'Sender' });
    const channel = await factory.channel(realm, { name: 'bench', subscribers: [sender] });
    const host = system.api.hostFor('bench');
    const gateways = [new URL(system.apiVia(0).baseUrl), new URL(system.apiVia(1).baseUrl)];

    console.log(`bench:events  setting up ${userCount} users and queues…`);
    const users = await createUsers(system, realm.id, channel.id, userCount);
    const clients: Client[] = [];
    for (let i = 0; i < users.length; i += 50) {
      clients.push(
        ...(await Promise.all(
          users.slice(i, i + 50).map(async (user, j) => {
            const authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
            const gateway = gateways[(i + j) % 2];
            const res = await postForm(agent, new URL('/api/v1/register', gateway), host, authorization, {
              event_types: '["message"]',
              fetch_event_types: '[]',
              apply_markdown: 'false',
            });
            if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body}`);
            return { authorization, queueId: (JSON.parse(res.body) as { queue_id: string }).queue_id, gateway, lastEventId: -1 };
          }),
        )),
      );
    }

    // Every delivery: the latency from just before the send to the moment the client had it.
    let latencies: number[] = [];
    let delivered = 0;
    let pollErrors = 0;
    const poll = async (client: Client) => {
      while (!stopping) {
        const url = new URL(`/api/v1/events?queue_id=${client.queueId}&last_event_id=${client.lastEventId}`, client.gateway);
        try {
          const res = await getJson(agent, url, host, client.authorization);
          if (res.status !== 200) {
            pollErrors++;
            await sleep(500);
            continue;
          }
          const now = Date.now();
          const { events } = JSON.parse(res.body) as { events: { id: number; type: string; message?: { content: string } }[] };
          for (const event of events) {
            client.lastEventId = event.id;
            const sentAt = event.type === 'message' ? Number(/^sent (\d+)/.exec(event.message!.content)?.[1]) : NaN;
            if (!Number.isNaN(sentAt)) {
              latencies.push(now - sentAt);
              delivered++;
            }
          }
        } catch {
          if (!stopping) pollErrors++;
          await sleep(500);
        }
      }
    };
    const polling = clients.map(poll);
    await sleep(1000);

    const senderAuth = `Basic ${Buffer.from(`${sender.email}:${sender.apiKey}`).toString('base64')}`;
    const sendUrl = new URL('/api/v1/messages', gateways[0]);
    const results: { rate: number; sent: number; expected: number; delivered: number; sendErrors: number; p50: number; p95: number; p99: number; lastMs: number }[] = [];
    console.log(`  ${userCount} queues registered on 2 gateways; sending for ${seconds} s per rate\n`);
    console.log('  rate msg/s   sent   deliveries expected/got   dropped   p50 ms   p95 ms   p99 ms   send errors');
    const cpu: { rate: number; before: CpuSnapshot; after: CpuSnapshot; seconds: number; delivered: number }[] = [];
    for (const rate of rates) {
      const before = cpuSnapshot(system.pids());
      latencies = [];
      delivered = 0;
      let sent = 0;
      let sendErrors = 0;
      const sends: Promise<void>[] = [];
      const started = Date.now();
      const total = Math.round(rate * seconds);
      for (let n = 0; n < total; n++) {
        const due = started + (n * 1000) / rate;
        if (due > Date.now()) await sleep(due - Date.now());
        sent++;
        sends.push(
          postForm(agent, sendUrl, host, senderAuth, { type: 'stream', to: 'bench', topic: `rate ${rate}`, content: `sent ${Date.now()} #${n}` }).then(
            (res) => void (res.status === 200 || sendErrors++),
            () => void sendErrors++,
          ),
        );
      }
      await Promise.all(sends);
      const expected = (sent - sendErrors) * userCount;
      const waitUntil = Date.now() + graceMs;
      while (delivered < expected && Date.now() < waitUntil) await sleep(100);
      cpu.push({ rate, before, after: cpuSnapshot(system.pids()), seconds: (Date.now() - started) / 1000, delivered });
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
        lastMs: sorted[sorted.length - 1] ?? NaN,
      };
      results.push(row);
      console.log(
        `  ${String(rate).padStart(10)}   ${String(sent).padStart(4)}   ${String(expected).padStart(12)}/${String(delivered).padEnd(9)}   ${String(expected - delivered).padStart(7)}   ${row.p50.toFixed(0).padStart(6)}   ${row.p95.toFixed(0).padStart(6)}   ${row.p99.toFixed(0).padStart(6)}   ${String(sendErrors).padStart(11)}`,
      );
      if (expected - delivered > 0 || sendErrors > 0) break; // the next rate would only drop more
      await sleep(1000);
    }
    const complete = results.filter((r) => r.delivered >= r.expected && r.sendErrors === 0).map((r) => r.rate);
    const sustained = results.filter((r) => r.delivered >= r.expected && r.sendErrors === 0 && r.p99 <= sustainedP99Ms).map((r) => r.rate);
    const best = (rates: number[]) => (rates.length ? Math.max(...rates) : 0);
    console.log(`\n  highest rate with nothing dropped:               ${best(complete)} messages/s (${best(complete) * userCount} deliveries/s)`);
    console.log(`  highest rate sustained (nothing dropped, p99 ≤ ${sustainedP99Ms} ms): ${best(sustained)} messages/s (${best(sustained) * userCount} deliveries/s)`);
    console.log(`  poll errors: ${pollErrors}`);
    // The gateways' own account of the fan-out (Prometheus histogram on /metrics).
    let count = 0;
    let sum = 0;
    for (const gateway of gateways) {
      const text = await (await fetch(new URL('/metrics', gateway))).text();
      count += Number(/^event_fanout_duration_seconds_count\{outcome="ok"\} (\S+)/m.exec(text)?.[1] ?? 0);
      sum += Number(/^event_fanout_duration_seconds_sum\{outcome="ok"\} (\S+)/m.exec(text)?.[1] ?? 0);
    }
    console.log(`  fan-out: ${count} batches of domain events, ${((sum / Math.max(count, 1)) * 1000).toFixed(1)} ms each on average`);
    for (const { rate, before, after, seconds: elapsed, delivered: got } of cpu) {
      console.log(`\n  at ${rate} messages/s:`);
      printCpu(before, after, elapsed);
      const gatewayCpu = [...after].filter(([name]) => name.startsWith('gateway')).reduce((sum, [name, total]) => sum + total - (before.get(name) ?? 0), 0);
      console.log(`    gateways' CPU per delivery (fan-out, append, poll, answer): ${((gatewayCpu / Math.max(got, 1)) * 1e6).toFixed(0)} µs`);
    }
    stopping = true;
    agent.destroy();
    await Promise.race([Promise.allSettled(polling), sleep(1000)]);
  } finally {
    stopping = true;
    agent.destroy();
    await system.stop();
  }
}

runBenchmark(main);

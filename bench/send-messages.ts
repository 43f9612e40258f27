/**
 * `npm run bench:send`: drives POST /messages with concurrent clients for a fixed time against
 * the real services, and prints messages per second and latency percentiles.
 * Tunable: BENCH_CLIENTS (default 16), BENCH_SECONDS (default 20), BENCH_SUBSCRIBERS (default 20).
 */
import http from 'node:http';
import { Factory, type TestUser } from '@teamchat/testing';
import { percentile, postForm, runBenchmark, startBenchSystem } from './support';

async function main() {
  const clients = Number(process.env.BENCH_CLIENTS ?? 16);
  const seconds = Number(process.env.BENCH_SECONDS ?? 20);
  const subscriberCount = Number(process.env.BENCH_SUBSCRIBERS ?? 20);
  const system = await startBenchSystem();
  try {
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'bench' });
    const users: TestUser[] = [];
    for (let i = 0; i < subscriberCount; i++) users.push(await factory.user(realm, { fullName: `Bench ${i}` }));
    await factory.channel(realm, { name: 'bench', subscribers: users });

    const url = new URL('/api/v1/messages', system.api.baseUrl);
    const host = system.api.hostFor('bench');
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();

    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const user = users[c % users.length];
        const authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
        let n = 0;
        while (Date.now() < deadline) {
          const t0 = process.hrtime.bigint();
          const res = await postForm(agent, url, host, authorization, {
            type: 'stream',
            to: 'bench',
            topic: `topic ${c % 8}`,
            content: `message ${n++} from client ${c} with **markdown**`,
          });
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.status !== 200) errors++;
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`bench:send  ${clients} clients, ${seconds} s, channel of ${subscriberCount} subscribers`);
    console.log(`  messages sent: ${latencies.length - errors} (errors: ${errors})`);
    console.log(`  throughput:    ${((latencies.length - errors) / elapsed).toFixed(1)} messages/s`);
    console.log(`  latency p50:   ${fmt(percentile(latencies, 50))}`);
    console.log(`  latency p95:   ${fmt(percentile(latencies, 95))}`);
    console.log(`  latency p99:   ${fmt(percentile(latencies, 99))}`);
    agent.destroy();
  } finally {
    await system.stop();
  }
}

runBenchmark(main);

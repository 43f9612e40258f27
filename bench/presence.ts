/**
 * `npm run bench:presence`: POST /users/me/presence against the real services, BENCH_USERS users
 * (default 1,000) in one organization, each report sent on schedule at BENCH_RATE a second
 * (default 200, open loop), in two phases:
 * 1. first reports (`ping_only`): every user's report writes (one Redis script after one
 *    Postgres read of the caller's presence setting); no events, the organization being larger
 *    than Zulip's 100-user limit for them;
 * 2. the regular minute's report (`last_update_id`, as a modern client polls): nothing to write
 *    (within 55 s of the last), and the answer is what changed since the client's last id.
 * Each phase prints the latency percentiles, and the CPU every process used per report
 * (services, Postgres, Redis, NATS, this client). Postgres, Redis and NATS are the machine's
 * shared servers: anything else running at the time is counted too.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { cpuSnapshot, cpuUsed, type CpuSnapshot } from './process-cpu';
import { percentile, postForm, runBenchmark, startBenchSystem } from './support';

interface PhaseResult {
  latencies: number[];
  errors: number;
  elapsed: number;
}

async function main() {
  const userCount = Number(process.env.BENCH_USERS ?? 1000);
  const rate = Number(process.env.BENCH_RATE ?? 200);
  const system = await startBenchSystem({ AUTH_CACHE_TTL_SECONDS: '60', RATE_LIMIT_ENABLED: 'false' });
  try {
    const realm = await system.db.realm.create({ data: { subdomain: 'bench', name: 'Bench' } });
    // Users in bulk (the factory hashes a password per user, which takes minutes for a thousand).
    const stamp = randomBytes(3).toString('hex');
    await system.db.user.createMany({
      data: Array.from({ length: userCount }, (_, i) => ({
        realmId: realm.id,
        deliveryEmail: `bench-${stamp}-${i}@example.test`,
        fullName: `Bench ${i}`,
        role: 400,
        settings: {},
      })),
    });
    const users = await system.db.user.findMany({ where: { realmId: realm.id }, select: { id: true, deliveryEmail: true }, orderBy: { id: 'asc' } });
    const keys = users.map(() => randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'x').slice(0, 32));
    await system.db.apiKey.createMany({ data: users.map((user, i) => ({ userId: user.id, key: keys[i] })) });
    const authorizations = users.map((user, i) => `Basic ${Buffer.from(`${user.deliveryEmail}:${keys[i]}`).toString('base64')}`);

    const url = new URL('/api/v1/users/me/presence', system.api.baseUrl);
    const host = system.api.hostFor('bench');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });

    // Warm up: every user's credentials checked once (the gateway remembers them for 60 s), with a
    // report that writes nothing (an unknown status is refused before anything is read or stored).
    await runAtRate(userCount, 500, (i) => postForm(agent, url, host, authorizations[i], { status: 'warm-up' }));

    console.log(`bench:presence  ${userCount} users in one organization, ${rate} reports/s`);
    const phase = async (name: string, send: (i: number) => Promise<{ status: number; body: string }>) => {
      const before = cpuSnapshot(system.pids());
      const result = await runAtRate(userCount, rate, send);
      const after = cpuSnapshot(system.pids());
      report(name, result, before, after);
    };

    let lastUpdateId = -1;
    await phase('first reports (ping_only: each one writes)', (i) =>
      postForm(agent, url, host, authorizations[i], { status: 'active', ping_only: 'true' }),
    );
    // What a client holding the state of a moment ago asks for.
    const state = await postForm(agent, url, host, authorizations[0], { status: 'active', last_update_id: '-1' });
    lastUpdateId = (JSON.parse(state.body) as { presence_last_update_id: number }).presence_last_update_id;
    await phase('the regular report (last_update_id: reads what changed, writes nothing)', (i) =>
      postForm(agent, url, host, authorizations[i], { status: 'active', last_update_id: String(lastUpdateId) }),
    );
    const full = await postForm(agent, url, host, authorizations[0], { status: 'active', last_update_id: '-1' });
    console.log(`\n  (a full fetch answers ${Object.keys((JSON.parse(full.body) as { presences: object }).presences).length} users, ${full.body.length} bytes)`);
    agent.destroy();
  } finally {
    await system.stop();
  }
}

/** Sends `count` requests, the i-th due at i/rate seconds whatever the others are doing; latency counts from when it was due. */
async function runAtRate(count: number, rate: number, send: (i: number) => Promise<{ status: number }>): Promise<PhaseResult> {
  const result: PhaseResult = { latencies: [], errors: 0, elapsed: 0 };
  const started = process.hrtime.bigint();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + BigInt(Math.round((i * 1e9) / rate));
    const wait = Number(due - process.hrtime.bigint()) / 1e6;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      send(i).then((res) => {
        result.latencies.push(Number(process.hrtime.bigint() - due) / 1e6);
        if (res.status !== 200) result.errors++;
      }),
    );
  }
  await Promise.all(inFlight);
  result.elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return result;
}

function report(name: string, { latencies, errors, elapsed }: PhaseResult, before: CpuSnapshot, after: CpuSnapshot): void {
  latencies.sort((a, b) => a - b);
  const count = latencies.length;
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`\n${name}`);
  console.log(`  reports: ${count - errors} (errors: ${errors}) in ${elapsed.toFixed(1)} s`);
  console.log(`  latency: p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, p99 ${fmt(percentile(latencies, 99))}`);
  const used = cpuUsed(before, after)
    .map(([process, cpu]): [string, number] => [process, cpu.total])
    .filter(([, cpu]) => cpu >= 0.005);
  const sum = used.reduce((total, [, cpu]) => total + cpu, 0);
  console.log(`  CPU per report: ${((sum * 1e6) / count).toFixed(0)} µs in all`);
  for (const [process, cpu] of used) console.log(`    ${process.padEnd(16)} ${((cpu * 1e6) / count).toFixed(0).padStart(6)} µs`);
}

runBenchmark(main);

/**
 * `npm run bench:send`: POST /messages against the real services, in two phases:
 * 1. saturated: BENCH_CLIENTS keep-alive connections (default 20) send back to back for
 *    BENCH_SECONDS (default 10): the most messages per second the system sustains;
 * 2. fixed rate: BENCH_RATE messages per second (default 100), each sent on schedule whatever
 *    the others are doing (open loop), for BENCH_SECONDS: the latency a client sees at that load.
 * Each phase prints its throughput, latency percentiles and the CPU seconds every process used
 * (services, Postgres, Redis, NATS, and this client). The channel has BENCH_SUBSCRIBERS (default 10).
 */
import http from 'node:http';
import { eventStreamName } from '@teamchat/contracts';
import { Factory, type TestUser } from '@teamchat/testing';
import { connect } from 'nats';
import { cpuSnapshot, printCpu } from './process-cpu';
import { percentile, postForm, runBenchmark, startBenchSystem } from './support';

interface PhaseResult {
  latencies: number[];
  errors: number;
  elapsed: number;
}

async function main() {
  const clients = Number(process.env.BENCH_CLIENTS ?? 20);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rate = Number(process.env.BENCH_RATE ?? 100);
  const subscriberCount = Number(process.env.BENCH_SUBSCRIBERS ?? 10);
  const system = await startBenchSystem();
  try {
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'bench' });
    const users: TestUser[] = [];
    for (let i = 0; i < subscriberCount; i++) users.push(await factory.user(realm, { fullName: `Bench ${i}` }));
    await factory.channel(realm, { name: 'bench', subscribers: users });

    const url = new URL('/api/v1/messages', system.api.baseUrl);
    const host = system.api.hostFor('bench');
    const authorizations = users.map((user) => `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`);
    let sent = 0;
    const send = (agent: http.Agent, client: number) =>
      postForm(agent, url, host, authorizations[client % authorizations.length], {
        type: 'stream',
        to: 'bench',
        topic: `topic ${client % 8}`,
        content: `message ${sent++} from client ${client} with **markdown**`,
      });

    // Warm up (connections, caches, JIT) before anything is measured.
    const warmAgent = new http.Agent({ keepAlive: true, maxSockets: clients });
    await Promise.all(Array.from({ length: clients }, (_, c) => send(warmAgent, c)));
    warmAgent.destroy();

    // The gateways' fan-out of the sent messages' events: a phase counts as sustained only
    // once the fan-out has caught up, so its figures include the time that took.
    const nats = await connect({ servers: system.env.NATS_URL });
    const jetstream = await nats.jetstreamManager();
    const stream = eventStreamName(system.env.NATS_SUBJECT_PREFIX ?? '');
    // Every partition's consumer reads the whole stream: the backlog is the furthest behind.
    const fanoutBacklog = async () => {
      let behind = 0;
      for (let partition = 0; partition < Number(system.env.EVENT_FANOUT_PARTITIONS ?? 8); partition++) {
        // The gateway's consumer of that partition (apps/gateway/src/events/partition-fanout.ts).
        const info = await jetstream.consumers.info(stream, `gateway-fanout-${partition}`).catch(() => undefined);
        if (info) behind = Math.max(behind, info.num_pending + info.num_ack_pending);
      }
      return behind;
    };
    const phase = async (name: string, run: (agent: http.Agent) => Promise<PhaseResult>) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
      const before = cpuSnapshot(system.pids());
      const result = await run(agent);
      const backlog = await fanoutBacklog();
      const caughtUpAt = Date.now();
      while ((await fanoutBacklog()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const catchUp = (Date.now() - caughtUpAt) / 1000;
      const after = cpuSnapshot(system.pids());
      agent.destroy();
      report(name, result);
      const sent = result.latencies.length - result.errors;
      console.log(
        `  fan-out:       ${backlog} events behind when sending stopped, caught up ${catchUp.toFixed(1)} s later: ` +
          `${(sent / (result.elapsed + catchUp)).toFixed(1)} messages/s sent and fanned out`,
      );
      printCpu(before, after, result.elapsed + catchUp);
    };

    console.log(`bench:send  channel of ${subscriberCount} subscribers, ${seconds} s per phase`);
    await phase(`saturated, ${clients} connections`, async (agent) => {
      const result: PhaseResult = { latencies: [], errors: 0, elapsed: 0 };
      const started = Date.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          while (Date.now() < deadline) {
            const t0 = process.hrtime.bigint();
            const res = await send(agent, c);
            result.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            if (res.status !== 200) result.errors++;
          }
        }),
      );
      result.elapsed = (Date.now() - started) / 1000;
      return result;
    });

    await phase(`fixed rate, ${rate} messages/s`, async (agent) => {
      const result: PhaseResult = { latencies: [], errors: 0, elapsed: 0 };
      const total = Math.round(rate * seconds);
      const started = process.hrtime.bigint();
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        // Latency counts from when the message was due, so a stalled server cannot hide behind a late client.
        const due = started + BigInt(Math.round((i * 1e9) / rate));
        const wait = Number(due - process.hrtime.bigint()) / 1e6;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        inFlight.push(
          send(agent, i).then((res) => {
            result.latencies.push(Number(process.hrtime.bigint() - due) / 1e6);
            if (res.status !== 200) result.errors++;
          }),
        );
      }
      await Promise.all(inFlight);
      result.elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      return result;
    });
    await nats.close();
  } finally {
    await system.stop();
  }
}

function report(name: string, { latencies, errors, elapsed }: PhaseResult): void {
  latencies.sort((a, b) => a - b);
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`\n${name}`);
  console.log(`  messages sent: ${latencies.length - errors} (errors: ${errors}) in ${elapsed.toFixed(1)} s`);
  console.log(`  throughput:    ${((latencies.length - errors) / elapsed).toFixed(1)} messages/s`);
  console.log(
    `  latency:       p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, p99 ${fmt(percentile(latencies, 99))}`,
  );
}

runBenchmark(main);

/**
 * `npm run bench:register`: POST /register with all state (no event_types, no fetch_event_types:
 * what Zulip's apps ask for at start) for members of organizations of BENCH_USERS_LIST users
 * (comma-separated, default 1000,10000), each with BENCH_CHANNELS channels (100) the member is
 * subscribed to. Prints, per size, the latency of BENCH_REGISTERS registers one after another
 * (50; p50/p90/p99 after a warm-up), the answer's size, and each process's CPU; then the same
 * with Zulip's shrinking capabilities (`user_list_incomplete`, `client_gravatar`,
 * `include_subscribers=false`, `slim_presence`).
 */
import http from 'node:http';
import { Factory } from '@teamchat/testing';
import { cpuSnapshot, printCpu } from './process-cpu';
import { createUsers, percentile, postForm, runBenchmark, startBenchSystem } from './support';

async function main() {
  const sizes = (process.env.BENCH_USERS_LIST ?? '1000,10000').split(',').map(Number);
  const channelCount = Number(process.env.BENCH_CHANNELS ?? 100);
  const registers = Number(process.env.BENCH_REGISTERS ?? 50);
  const system = await startBenchSystem();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const factory = new Factory(system.db);
    for (const size of sizes) {
      const subdomain = `bench${size}`;
      const realm = await factory.organization({ subdomain });
      const member = await factory.user(realm, { fullName: 'Member' });
      const channels = [];
      for (let i = 0; i < channelCount; i++) channels.push(await factory.channel(realm, { name: `channel ${i}`, subscribers: [member] }));
      console.log(`\nbench:register  ${size} users, ${channelCount} channels: setting up…`);
      await createUsers(system, realm.id, channels[0].id, size - 1);
      const host = system.api.hostFor(subdomain);
      const authorization = `Basic ${Buffer.from(`${member.email}:${member.apiKey}`).toString('base64')}`;
      const url = new URL('/api/v1/register', system.api.baseUrl);

      const variants: { name: string; form: Record<string, string> }[] = [
        { name: 'all state', form: {} },
        {
          name: 'all state, shrunk (user_list_incomplete, client_gravatar, no subscribers, slim_presence)',
          form: {
            client_capabilities: JSON.stringify({ notification_settings_null: true, user_list_incomplete: true }),
            client_gravatar: 'true',
            include_subscribers: 'false',
            slim_presence: 'true',
          },
        },
      ];
      for (const { name, form } of variants) {
        const once = async () => {
          const started = process.hrtime.bigint();
          const res = await postForm(agent, url, host, authorization, form);
          if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body.slice(0, 300)}`);
          return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: Buffer.byteLength(res.body) };
        };
        for (let i = 0; i < 3; i++) await once(); // warm-up: connections, caches, JIT
        const before = cpuSnapshot(system.pids());
        const started = Date.now();
        const results = [];
        for (let i = 0; i < registers; i++) results.push(await once());
        const after = cpuSnapshot(system.pids());
        const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
        console.log(`\n  ${name}: ${registers} registers, answer ${(results[0].bytes / 1024).toFixed(0)} KB`);
        console.log(`    latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p90 ${percentile(sorted, 90).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
        printCpu(before, after, (Date.now() - started) / 1000);
      }
    }
  } finally {
    agent.destroy();
    await system.stop();
  }
}

runBenchmark(main);

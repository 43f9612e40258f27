/**
 * `npm run bench:scheduled`: schedules BENCH_MESSAGES (default 10,000) messages through POST
 * /scheduled_messages across BENCH_SENDERS (default 100) senders, due one after another over a
 * 60 s window that starts BENCH_LEAD_SECONDS (default 40) after the benchmark starts scheduling,
 * waits for them, and prints how late they were delivered (message date_sent minus the
 * scheduled second) p50/p95/p99/max, how many were delivered, and duplicates (messages per
 * scheduled message beyond one; must be 0).
 */
import http from 'node:http';
import { Factory, type TestUser } from '@teamchat/testing';
import { percentile, postForm, runBenchmark, startBenchSystem } from './support';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 100);
const LEAD_SECONDS = Number(process.env.BENCH_LEAD_SECONDS ?? 40);
const WINDOW_SECONDS = 60;
const CONCURRENCY = 32;

const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const system = await startBenchSystem();
  try {
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'bench' });
    const senders: TestUser[] = [];
    while (senders.length < SENDERS) senders.push(await factory.user(realm, { fullName: `Sender ${senders.length}` }));
    const readers = await Promise.all([0, 1, 2].map((n) => factory.user(realm, { fullName: `Reader ${n}` })));
    const channel = await factory.channel(realm, { name: 'bench', subscribers: readers });

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const url = new URL(`http://127.0.0.1:${system.ports.gateway}/api/v1/scheduled_messages`);
    const host = `bench.${new URL(system.env.EXTERNAL_URL).hostname}`;
    const first = Math.floor(Date.now() / 1000) + LEAD_SECONDS;
    let next = 0;
    const scheduleStarted = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < MESSAGES; i = next++) {
          const sender = senders[i % SENDERS];
          const res = await postForm(agent, url, host, `Basic ${Buffer.from(`${sender.email}:${sender.apiKey}`).toString('base64')}`, {
            type: 'stream',
            to: String(channel.id),
            topic: `topic ${i % 10}`,
            content: `scheduled ${i}`,
            scheduled_delivery_timestamp: String(first + Math.floor((i * WINDOW_SECONDS) / MESSAGES)),
          });
          if (res.status !== 200) throw new Error(`scheduling ${i} failed: ${res.status} ${res.body}`);
        }
      }),
    );
    const scheduledIn = (Date.now() - scheduleStarted) / 1000;
    out();
    out(`bench:scheduled  ${MESSAGES.toLocaleString('en')} messages from ${SENDERS} senders scheduled in ${scheduledIn.toFixed(1)} s, due over ${WINDOW_SECONDS} s from +${LEAD_SECONDS} s`);

    const deadline = (first + WINDOW_SECONDS + 30) * 1000;
    const delivered = () => system.db.scheduledMessage.count({ where: { delivered: true } });
    while ((await delivered()) < MESSAGES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1000));

    const rows = await system.db.$queryRaw<{ late_ms: number }[]>`
      SELECT extract(epoch FROM m.date_sent - s.scheduled_timestamp) * 1000 AS late_ms
      FROM scheduled_messages s JOIN messages m ON m.scheduled_message_id = s.id`;
    const [{ duplicates }] = await system.db.$queryRaw<{ duplicates: bigint }[]>`
      SELECT (count(*) - count(DISTINCT content))::bigint AS duplicates FROM messages WHERE stream_id = ${channel.id}`;
    const late = rows.map((row) => Number(row.late_ms)).sort((a, b) => a - b);
    const ms = (p: number) => `${Math.round(percentile(late, p))} ms`;
    out(`delivered ${(await delivered()).toLocaleString('en')} of ${MESSAGES.toLocaleString('en')}, messages ${late.length.toLocaleString('en')}, duplicates ${duplicates}`);
    out(`lateness p50 ${ms(50)}, p95 ${ms(95)}, p99 ${ms(99)}, max ${ms(100)}`);
    out();
    agent.destroy();
  } finally {
    await system.stop();
  }
}

runBenchmark(main);

/**
 * `npm run bench:overload`: a burst of account creation beyond what one users-groups process can
 * do in time (issue 29). BENCH_ACCOUNTS (150) clients each send POST /users at once (each hashes
 * a password), on connections of their own, to the system as `npm start` runs it (one replica of
 * each service, the gateway's command deadline NATS_REQUEST_TIMEOUT_MS at its default unless
 * BENCH_DEADLINE_MS sets it); then every account answered 200 fetches its API key
 * (`POST /fetch_api_key`, which checks the password), all at once too, a 503 asked again.
 * Prints how the answers split, their times against the deadline plus a second (timed by the
 * client, from before its request to the end of the answer), whether every 200 made exactly one
 * account and every 503 none, and each process's CPU. Exits 1 when a promise is broken.
 */
import { Factory } from '@teamchat/testing';
import { cpuSnapshot, printCpu } from './process-cpu';
import { percentile, postForm, runBenchmark, startBenchSystem } from './support';

interface Answer {
  status: number;
  body: string;
  retryAfter?: string;
  ms: number;
}

/** One form POST on a connection of its own (each burst client is a client of its own), timed. */
async function post(url: URL, host: string, form: Record<string, string>, authorization?: string): Promise<Answer> {
  const started = process.hrtime.bigint();
  const { status, body, headers } = await postForm(false, url, host, authorization, form);
  const retryAfter = headers['retry-after'];
  return { status, body, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

function summarize(label: string, answers: Answer[], boundMs: number): boolean {
  const byStatus = new Map<number, number>();
  for (const { status } of answers) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const sorted = answers.map(({ ms }) => ms).sort((a, b) => a - b);
  const late = sorted.filter((ms) => ms > boundMs).length;
  const statuses = [...byStatus].map(([status, count]) => `${count}× ${status}`).join(', ');
  console.log(`  ${label.padEnd(34)} ${statuses.padEnd(22)} p50 ${percentile(sorted, 50).toFixed(0).padStart(6)} ms   p99 ${percentile(sorted, 99).toFixed(0).padStart(6)} ms   max ${sorted[sorted.length - 1].toFixed(0).padStart(6)} ms   over ${boundMs} ms: ${late}`);
  return late === 0;
}

async function main() {
  const accounts = Number(process.env.BENCH_ACCOUNTS ?? 150);
  const env: Record<string, string> = process.env.BENCH_DEADLINE_MS ? { NATS_REQUEST_TIMEOUT_MS: process.env.BENCH_DEADLINE_MS } : {};
  const system = await startBenchSystem(env);
  const deadlineMs = Number(process.env.BENCH_DEADLINE_MS ?? 10_000);
  const boundMs = deadlineMs + 1000;
  const promisesKept: boolean[] = [];
  try {
    const { realm, admin } = await new Factory(system.db).organizationWithStaff({ subdomain: 'overload' });
    const host = system.api.hostFor(realm.subdomain);
    const users = new URL('/api/v1/users', system.api.baseUrl);
    const fetchApiKey = new URL('/api/v1/fetch_api_key', system.api.baseUrl);
    const authorization = `Basic ${Buffer.from(`${admin.email}:${admin.apiKey}`).toString('base64')}`;
    const password = 'Correct-Horse-Battery-9';
    // A process that has been serving (its code compiled, Welcome Bot made), as in production.
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await post(users, host, { email: `warm${attempt}@example.test`, password, full_name: 'Warm' }, authorization)).status === 200) break;
    }

    console.log(`\nbench:overload  ${accounts} × POST /users at once, then POST /fetch_api_key for each account made; deadline ${deadlineMs} ms, bound ${boundMs} ms\n`);
    const emails = Array.from({ length: accounts }, (_, n) => `burst${n}@example.test`);
    const before = cpuSnapshot(system.pids());
    const started = Date.now();
    const created = await Promise.all(emails.map((email, n) => post(users, host, { email, password, full_name: `Burst ${n}` }, authorization)));
    const after = cpuSnapshot(system.pids());
    const burstSeconds = (Date.now() - started) / 1000;
    promisesKept.push(summarize('POST /users', created, boundMs));

    // Every 200 made exactly one account, every 503 (with Retry-After) none.
    await new Promise((resolve) => setTimeout(resolve, 1500)); // anything still running behind a refusal would show by now
    const stored = await system.db.user.groupBy({ by: ['deliveryEmail'], where: { realmId: realm.id, deliveryEmail: { in: emails } }, _count: { _all: true } });
    const count = new Map(stored.map((row) => [row.deliveryEmail, row._count._all]));
    const wrong = emails.filter((email, n) => (count.get(email) ?? 0) !== (created[n].status === 200 ? 1 : 0));
    const unexplained = created.filter(({ status, retryAfter }) => status !== 200 && !(status === 503 && retryAfter));
    console.log(`  accounts: ${stored.length} stored; ${wrong.length} differ from their answer; ${unexplained.length} answers neither 200 nor 503 with Retry-After`);
    promisesKept.push(wrong.length === 0 && unexplained.length === 0);

    // The accounts work: each logs in, all at once (the checks take turns the same way; a 503 is asked again).
    const made = emails.filter((_, n) => created[n].status === 200);
    const logins: Answer[] = [];
    let pending = made;
    for (let round = 0; pending.length > 0 && round < 20; round++) {
      const answers = await Promise.all(pending.map((email) => post(fetchApiKey, host, { username: email, password })));
      logins.push(...answers);
      pending = pending.filter((_, n) => answers[n].status === 503);
    }
    if (made.length > 0) promisesKept.push(summarize('POST /fetch_api_key (every round)', logins, boundMs));
    const keys = logins.filter(({ status, body }) => status === 200 && /"api_key":"[A-Za-z0-9]{32}"/.test(body)).length;
    console.log(`  logins: ${keys} of ${made.length} accounts fetched their key; ${pending.length} still refused after 20 rounds`);
    promisesKept.push(keys === made.length && logins.every(({ status }) => status === 200 || status === 503));

    console.log(`\n  the burst of POST /users:`);
    printCpu(before, after, burstSeconds);
    const kept = promisesKept.every(Boolean);
    console.log(`\n  ${kept ? 'every promise kept' : 'PROMISE BROKEN'}: every 200 made one account, every 503 none, every answer within the deadline plus a second`);
    if (!kept) process.exitCode = 1;
  } finally {
    await system.stop();
  }
}

runBenchmark(main);

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createTemplateDatabase, createTestDatabase, dropTestDatabase, templateDatabase, TestSystem } from '@teamchat/testing';

let templateMade: Promise<void> | undefined;

/** This run's migrated template, made once (runBenchmark drops it). */
function templateReady(): Promise<void> {
  process.env.TEAMCHAT_TEMPLATE_DB ??= `teamchat_bench_template_${randomBytes(4).toString('hex')}`;
  return (templateMade ??= createTemplateDatabase());
}

/** A fresh, migrated database of a benchmark's own, copied from this run's template. */
export async function createBenchDatabase(): Promise<{ name: string; url: string }> {
  await templateReady();
  return createTestDatabase();
}

/** Starts the whole system as the tests do (real processes, fresh database) for a benchmark. */
export async function startBenchSystem(env: Record<string, string> = {}, gateways = 1, databaseVia?: (url: string) => string): Promise<TestSystem> {
  await templateReady();
  // BENCH_NODE_ARGS reach every service process: `--cpu-prof --cpu-prof-dir=/tmp/prof` profiles them.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_NODE_ARGS_SERVICES=gateway: only those (a profile of each process slows the others down).
  const nodeArgsServices = process.env.BENCH_NODE_ARGS_SERVICES?.split(',').filter(Boolean);
  // OTEL_* reach them too: OTEL_EXPORTER_OTLP_ENDPOINT=http://… measures the cost of tracing.
  const otel = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('OTEL_') && e[1] !== undefined));
  // The caches keep their deployment defaults (the tests shorten or turn them off, to see
  // changes made behind the services' backs).
  return TestSystem.start({ env: { LOG_LEVEL: 'error', AUTH_CACHE_TTL_SECONDS: '5', SEND_CONTEXT_CACHE_SECONDS: '5', REGISTER_CACHE_MAX_AGE_SECONDS: '300', DATABASE_POOL_SIZE: '10', DATABASE_COLD_POOL_SIZE: '4', ...otel, ...env }, gateways, nodeArgs, nodeArgsServices, databaseVia });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * A form POST (keep-alive through `agent`; `false` for a connection of its own) that resolves
 * with the status code, body text and headers; without `authorization`, anonymous.
 */
export function postForm(
  agent: http.Agent | false,
  url: URL,
  host: string,
  authorization: string | undefined,
  form: Record<string, string>,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const payload = Buffer.from(new URLSearchParams(form).toString());
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          Host: host,
          ...(authorization ? { Authorization: authorization } : {}),
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs a benchmark's main and exits with its outcome (the processes it started are stopped by then). */
export function runBenchmark(main: () => Promise<void>): void {
  // The template database this run made goes with it (each run names its own).
  const dropTemplate = () => (templateDatabase().startsWith('teamchat_bench_template_') ? dropTestDatabase(templateDatabase()).catch(() => undefined) : undefined);
  main().finally(dropTemplate).then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** Users, API keys and subscriptions in bulk (the factory's per-user password hashing would take minutes). */
export async function createUsers(system: TestSystem, realmId: number, channelId: number, count: number) {
  const tag = randomBytes(3).toString('hex');
  await system.db.user.createMany({
    data: Array.from({ length: count }, (_, i) => ({ realmId, deliveryEmail: `bench-${tag}-${i}@example.test`, fullName: `Bench ${i}` })),
  });
  const users = await system.db.user.findMany({ where: { realmId, deliveryEmail: { startsWith: `bench-${tag}-` } }, orderBy: { id: 'asc' } });
  const keys = users.map((user) => ({ userId: user.id, key: randomBytes(16).toString('hex') }));
  await system.db.apiKey.createMany({ data: keys });
  await system.db.subscription.createMany({ data: users.map((user) => ({ userId: user.id, streamId: channelId, subscribedAfterMessageId: 0 })) });
  await analyze(system);
  return users.map((user, i) => ({ email: user.deliveryEmail, apiKey: keys[i].key }));
}

/**
 * The planner's statistics, as autovacuum keeps them on a live database. This machine's Postgres
 * runs with autovacuum off, and after a bulk insert stale statistics ("30 users" holding 1,000)
 * chose plans 14× slower (push's candidate recipients: 146 ms against 10 ms).
 */
export async function analyze(system: TestSystem): Promise<void> {
  await system.db.$executeRawUnsafe('ANALYZE');
}

/**
 * A channel's past: `count` messages from `senderId` in topic "history", each with a row for
 * every subscriber, then fresh statistics. An organization of this size has a history, and
 * statistics taken over empty message tables (a fresh database) make the planner scan all of
 * user_messages for one message's recipients (983 ms against 5 ms for 1,000 recipients).
 */
export async function seedHistory(system: TestSystem, channelId: number, senderId: number, count: number): Promise<void> {
  await system.db.$executeRaw`
    WITH made AS (
      INSERT INTO messages (realm_id, sender_id, stream_id, topic, content, rendered_content, date_sent)
      SELECT s.realm_id, ${senderId}, s.id, 'history', 'old ' || g, '<p>old ' || g || '</p>', now() - make_interval(secs => ${count} - g)
        FROM streams s, generate_series(1, ${count}) g WHERE s.id = ${channelId}
      RETURNING id
    )
    INSERT INTO user_messages (user_id, message_id, flags)
    SELECT sub.user_id, made.id, 1 FROM made, subscriptions sub WHERE sub.stream_id = ${channelId} AND sub.active`;
  await system.db.$executeRaw`UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE stream_id = ${channelId}) WHERE id = ${channelId} AND first_message_id IS NULL`;
  await analyze(system);
}

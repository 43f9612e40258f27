/**
 * `npm run bench:delete-topic`: POST /streams/{stream_id}/delete_topic on a topic of 100,000
 * messages. Starts the whole system as the tests do (real processes, fresh database, default
 * settings), writes the topic straight into the store with SQL (a UserMessage row per
 * subscriber), then calls the real HTTP endpoint as a client does, again and again until it
 * answers `complete: true`, and prints messages deleted per second and how many requests it took.
 * Tunable: BENCH_MESSAGES (default 100000), BENCH_SUBSCRIBERS (default 3).
 */
import { performance } from 'node:perf_hooks';
import { Factory, type TestSystem, type TestUser } from '@teamchat/testing';
import { runBenchmark, startBenchSystem } from './support';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 3);
const TOPIC = 'benchmark topic';

interface Request {
  ms: number;
  complete: boolean;
  remainingAfter: number;
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function writeTopic(system: TestSystem, realmId: number, streamId: number, sender: TestUser): Promise<void> {
  await system.db.$executeRaw`
    INSERT INTO messages (realm_id, sender_id, stream_id, topic, content, rendered_content)
    SELECT ${realmId}, ${sender.id}, ${streamId}, ${TOPIC}, 'message ' || g, '<p>message ' || g || '</p>'
    FROM generate_series(1, ${MESSAGES}::int) g`;
  await system.db.$executeRaw`
    INSERT INTO user_messages (user_id, message_id, flags)
    SELECT s.user_id, m.id, CASE WHEN s.user_id = ${sender.id} THEN 1 ELSE 0 END
    FROM messages m JOIN subscriptions s ON s.stream_id = m.stream_id AND s.active
    WHERE m.stream_id = ${streamId}`;
  await system.db.$executeRaw`
    UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE stream_id = ${streamId}) WHERE id = ${streamId}`;
  await system.db.$executeRaw`ANALYZE messages`;
  await system.db.$executeRaw`ANALYZE user_messages`;
}

async function main(): Promise<void> {
  const system = await startBenchSystem();
  try {
    const factory = new Factory(system.db);
    const { realm, admin } = await factory.organizationWithStaff({ subdomain: 'bench' });
    const members: TestUser[] = [admin];
    while (members.length < SUBSCRIBERS) members.push(await factory.user(realm, { fullName: `Reader ${members.length}` }));
    const channel = await factory.channel(realm, { name: 'bench', subscribers: members });

    let started = performance.now();
    await writeTopic(system, realm.id, channel.id, members[members.length - 1]);
    const setupMs = performance.now() - started;
    const count = () => system.db.message.count({ where: { streamId: channel.id } });
    const rows = await system.db.userMessage.count();
    out();
    out(
      `bench:delete-topic  ${MESSAGES.toLocaleString('en')} messages, ${SUBSCRIBERS} subscribers ` +
        `(${rows.toLocaleString('en')} UserMessage rows), written in ${seconds(setupMs)} s`,
    );

    const requests: Request[] = [];
    started = performance.now();
    for (;;) {
      const sent = performance.now();
      const res = await system.api.post<{ result: string; complete?: boolean; msg?: string }>(
        `/streams/${channel.id}/delete_topic`,
        { topic_name: TOPIC },
        { auth: admin, subdomain: realm.subdomain },
      );
      if (res.status !== 200 || res.body.result !== 'success') {
        throw new Error(`request failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      requests.push({ ms: performance.now() - sent, complete: res.body.complete === true, remainingAfter: await count() });
      if (res.body.complete) break;
      if (requests.length > 1000) throw new Error('no completion after 1000 requests');
    }
    const totalMs = performance.now() - started;
    const left = await count();
    if (left !== 0) throw new Error(`${left} messages left after complete: true`);

    out();
    out(' request   took (s)   complete   messages left');
    requests.forEach((r, i) => {
      const cells = [String(i + 1).padStart(8), seconds(r.ms).padStart(8), String(r.complete).padStart(8)];
      out(`${cells.join('   ')}   ${r.remainingAfter.toLocaleString('en').padStart(13)}`);
    });
    out();
    const rate = Math.round(MESSAGES / (totalMs / 1000)).toLocaleString('en');
    out(`deleted ${MESSAGES.toLocaleString('en')} messages in ${seconds(totalMs)} s: ${rate} messages/s, ${requests.length} request(s)`);
    out();
  } finally {
    await system.stop();
  }
}

runBenchmark(main);

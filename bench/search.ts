/**
 * `npm run bench:search`: full-text search (GET /messages with the `search` operator) over
 * BENCH_MESSAGES messages (default 1,000,000). Starts the whole system as the tests do, writes
 * the messages straight into the store with one INSERT … SELECT generate_series (12 words each,
 * drawn log-uniformly from a vocabulary of 5,000 made-up words, so a few words are very common
 * and most are rare; one message in 100 also says "the quick brown fox"), spread over 10
 * channels and 50 topics each, with a UserMessage row for the searcher. Then it asks the real
 * HTTP endpoint, one request at a time as a client does (anchor newest, 50 messages), for:
 * several common words, a rare word, a quoted phrase, words within a channel and topic, and
 * a word within a channel (read channel-wide); and prints p50/p99 per search and the CPU
 * seconds each process used while searching.
 * Tunable: BENCH_MESSAGES, BENCH_REPEAT (requests per search, default 40).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Factory, type TestSystem } from '@teamchat/testing';
import { cpuSnapshot, printCpu } from './process-cpu';
import { percentile, runBenchmark, startBenchSystem } from './support';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 40);
const CHANNELS = 10;
const VOCABULARY = 5000;
const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'so', 'ta', 'vu', 'ze', 'bo', 'da', 'fi', 'gu', 'ho', 'ja', 'ke', 'la', 'mo', 'ni'];

/** Word n of the vocabulary (as the SQL below spells it): three syllables from n's base-20 digits. */
const word = (n: number) => SYLLABLES[n % 20] + SYLLABLES[Math.floor(n / 20) % 20] + SYLLABLES[Math.floor(n / 400) % 20];

const out = (line = '') => process.stdout.write(`${line}\n`);

async function writeMessages(system: TestSystem, realmId: number, senderId: number, searcherId: number, channelIds: number[]): Promise<void> {
  const syllables = `ARRAY[${SYLLABLES.map((s) => `'${s}'`).join(',')}]`;
  // Rebuilding the GIN index once is much faster than updating it a million times.
  await system.db.$executeRawUnsafe(`DROP INDEX messages_search_tsvector_idx`);
  await system.db.$executeRawUnsafe(`
    INSERT INTO messages (realm_id, sender_id, stream_id, topic, content, rendered_content)
    SELECT ${realmId}, ${senderId}, (ARRAY[${channelIds.join(',')}])[1 + g % ${CHANNELS}], 'topic ' || (g / ${CHANNELS}) % 50, c, '<p>' || c || '</p>'
    FROM generate_series(1, ${MESSAGES}) g,
    LATERAL (
      SELECT string_agg(s[1 + n % 20] || s[1 + (n / 20) % 20] || s[1 + (n / 400) % 20], ' ')
             || CASE WHEN g % 100 = 0 THEN ' the quick brown fox' ELSE '' END AS c
      FROM (SELECT floor(exp(random() * ln(${VOCABULARY})))::int AS n FROM generate_series(1, 12) WHERE g > 0) w,
           (SELECT ${syllables} AS s) syllables
    ) words`);
  await system.db.$executeRawUnsafe(`CREATE INDEX messages_search_tsvector_idx ON messages USING GIN (search_tsvector)`);
  await system.db.$executeRawUnsafe(`
    INSERT INTO user_messages (user_id, message_id, flags)
    SELECT ${searcherId}, id, 1 FROM messages WHERE realm_id = ${realmId}`);
  await system.db.$executeRawUnsafe(`
    UPDATE streams s SET first_message_id = (SELECT min(id) FROM messages m WHERE m.stream_id = s.id) WHERE s.realm_id = ${realmId}`);
  await system.db.$executeRawUnsafe(`VACUUM ANALYZE messages`);
  await system.db.$executeRawUnsafe(`VACUUM ANALYZE user_messages`);
}

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

async function main(): Promise<void> {
  const system = await startBenchSystem();
  try {
    const factory = new Factory(system.db);
    const { realm, admin: searcher, member: sender } = await factory.organizationWithStaff({ subdomain: 'bench' });
    const channels = [];
    for (let i = 0; i < CHANNELS; i++) channels.push(await factory.channel(realm, { name: `bench ${i}`, subscribers: [searcher, sender] }));

    let started = performance.now();
    await writeMessages(system, realm.id, sender.id, searcher.id, channels.map((c) => c.id));
    const setupSeconds = (performance.now() - started) / 1000;
    const count = await system.db.message.count({ where: { realmId: realm.id } });
    out();
    out(`bench:search  ${count.toLocaleString('en')} messages in ${CHANNELS} channels (and as many UserMessage rows), written and indexed in ${setupSeconds.toFixed(1)} s`);

    const url = (narrow: unknown[]) => {
      const u = new URL('/api/v1/messages', system.api.baseUrl);
      u.search = new URLSearchParams({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify(narrow) }).toString();
      return u;
    };
    const searches: { name: string; narrow: unknown[] }[] = [
      { name: 'three common words', narrow: [{ operator: 'search', operand: `${word(1)} ${word(2)} ${word(3)}` }] },
      { name: 'a rare word', narrow: [{ operator: 'search', operand: word(3000) }] },
      { name: 'a common and a rare word', narrow: [{ operator: 'search', operand: `${word(1)} ${word(2500)}` }] },
      { name: 'a quoted phrase', narrow: [{ operator: 'search', operand: '"quick brown fox"' }] },
      {
        name: 'two words in a channel and topic',
        narrow: [
          { operator: 'channel', operand: channels[3].id },
          { operator: 'topic', operand: 'topic 7' },
          { operator: 'search', operand: `${word(1)} ${word(5)}` },
        ],
      },
      { name: 'a word in a channel', narrow: [{ operator: 'channel', operand: channels[5].id }, { operator: 'search', operand: word(40) }] },
    ];
    const host = system.api.hostFor('bench');
    const authorization = `Basic ${Buffer.from(`${searcher.email}:${searcher.apiKey}`).toString('base64')}`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    out();
    out(`${'search'.padEnd(36)} ${'found'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
    const before = cpuSnapshot(system.pids());
    started = performance.now();
    for (const { name, narrow } of searches) {
      const target = url(narrow);
      let found = 0;
      for (let i = 0; i < 3; i++) await getJson(agent, target, host, authorization); // warm-up
      const latencies: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const sent = performance.now();
        const res = await getJson(agent, target, host, authorization);
        latencies.push(performance.now() - sent);
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.body}`);
        found = (JSON.parse(res.body) as { messages: unknown[] }).messages.length;
      }
      latencies.sort((a, b) => a - b);
      const cells = [percentile(latencies, 50), percentile(latencies, 99), latencies[latencies.length - 1]].map((ms) => ms.toFixed(1).padStart(8));
      out(`${name.padEnd(36)} ${String(found).padStart(6)} ${cells.join(' ')}`);
    }
    const elapsed = (performance.now() - started) / 1000;
    const after = cpuSnapshot(system.pids());
    agent.destroy();
    out();
    out(`${searches.length * (REPEAT + 3)} searches, one at a time:`);
    printCpu(before, after, elapsed);
    out();
  } finally {
    await system.stop();
  }
}

runBenchmark(main);

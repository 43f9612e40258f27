/**
 * `npm run bench:notifications`: BENCH_RECIPIENTS (default 1,000) idle members of a channel (no
 * client open), each with an active E2EE push device and (all of them, or BENCH_TOKEN_USERS) an
 * FCM token registered the older way, are mentioned at once (`@**all**`, sent by an
 * administrator). Prints the time from the send to the last relay request (the E2EE batch and
 * one `push/notify` per token user) and to the last missed-message email (batching period
 * BENCH_BATCHING_SECONDS, default 1 s, through EMAIL_BATCHING_PERIOD_OVERRIDE_SECONDS), and the
 * CPU seconds each process used meanwhile. Uses the relay stand-in and SMTP sink the tests use.
 */
import sodium from 'libsodium-wrappers';
import { Factory, MailSink, PushRelayStandIn } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { cpuSnapshot, printCpu } from './process-cpu';
import { createUsers, postForm, runBenchmark, startBenchSystem } from './support';
import http from 'node:http';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1000);
const TOKEN_USERS = Number(process.env.BENCH_TOKEN_USERS ?? RECIPIENTS);
const BATCHING_SECONDS = Number(process.env.BENCH_BATCHING_SECONDS ?? 1);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 300) * 1000;

const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  await sodium.ready;
  const relay = await PushRelayStandIn.start();
  const sink = await MailSink.start();
  const system = await startBenchSystem({ ...relay.env(), ...sink.env(), EMAIL_BATCHING_PERIOD_OVERRIDE_SECONDS: String(BATCHING_SECONDS) });
  try {
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: 'bench' });
    const admin = await factory.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Bench Admin' });
    const channel = await factory.channel(realm, { name: 'bench', subscribers: [admin] });
    await createUsers(system, realm.id, channel.id, RECIPIENTS);
    const users = await system.db.user.findMany({ where: { realmId: realm.id, id: { not: admin.id } }, orderBy: { id: 'asc' }, select: { id: true } });
    await system.db.pushDevice.createMany({
      data: users.map((user, i) => ({
        realmId: realm.id,
        userId: user.id,
        pushAccountId: BigInt(100000 + i),
        tokenKind: 'fcm',
        pushPublicKey: Buffer.from(sodium.crypto_box_keypair().publicKey),
        bouncerPublicKey: 'bench-key',
        encryptedPushRegistration: `bench-${i}`,
        bouncerDeviceId: BigInt(500000 + i),
      })),
    });
    const tokenUsers = users.slice(0, TOKEN_USERS);
    await system.db.pushDeviceToken.createMany({ data: tokenUsers.map((user) => ({ realmId: realm.id, userId: user.id, kind: 2, token: `bench-fcm-${user.id}` })) });
    for (const user of tokenUsers) relay.tokens.add(`${user.id}:2:bench-fcm-${user.id}`);

    const agent = new http.Agent({ keepAlive: true });
    const url = new URL('/api/v1/messages', system.api.baseUrl);
    const host = system.api.hostFor('bench');
    const auth = `Basic ${Buffer.from(`${admin.email}:${admin.apiKey}`).toString('base64')}`;
    // Warm up (connections, caches, JIT) with a message that notifies nobody.
    await postForm(agent, url, host, auth, { type: 'stream', to: 'bench', topic: 'warm-up', content: 'warming up' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    relay.reset();
    sink.clear();

    const expectedRequests = 1 + tokenUsers.length;
    const before = cpuSnapshot(system.pids());
    const started = Date.now();
    const res = await postForm(agent, url, host, auth, { type: 'stream', to: 'bench', topic: 'all hands', content: '@**all** the building is on fire' });
    if (res.status !== 200) throw new Error(`send failed: ${res.status} ${res.body}`);
    const sentIn = Date.now() - started;
    let firstRelay = NaN;
    let lastRelay = NaN;
    let firstMail = NaN;
    let lastMail = NaN;
    while (Date.now() - started < TIMEOUT_MS && (Number.isNaN(lastRelay) || Number.isNaN(lastMail))) {
      if (Number.isNaN(firstRelay) && relay.received.length > 0) firstRelay = Date.now() - started;
      if (Number.isNaN(firstMail) && sink.mails.length > 0) firstMail = Date.now() - started;
      if (Number.isNaN(lastRelay) && relay.received.length >= expectedRequests) lastRelay = Date.now() - started;
      if (Number.isNaN(lastMail) && sink.mails.length >= RECIPIENTS) lastMail = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const elapsed = (Date.now() - started) / 1000;
    const after = cpuSnapshot(system.pids());
    const e2ee = relay.of('push/e2ee/notify');
    const devices = e2ee.reduce((n, request) => n + (request.body.push_requests as unknown[]).length, 0);

    out();
    out(`bench:notifications  one @**all** message to ${RECIPIENTS.toLocaleString('en')} idle recipients (each 1 E2EE device; ${tokenUsers.length.toLocaleString('en')} with an FCM token), email batching ${BATCHING_SECONDS} s`);
    out(`  send answered in ${sentIn} ms`);
    out(`  relay: ${e2ee.length} push/e2ee/notify request(s) for ${devices.toLocaleString('en')} devices, ${relay.of('push/notify').length.toLocaleString('en')} push/notify requests; first at ${firstRelay} ms, last at ${Number.isNaN(lastRelay) ? 'timeout' : `${lastRelay} ms`}`);
    out(`  email: ${sink.mails.length.toLocaleString('en')} missed-message emails; first at ${firstMail} ms, last at ${Number.isNaN(lastMail) ? 'timeout' : `${lastMail} ms`} (of which ${BATCHING_SECONDS * 1000} ms is the batching period)`);
    printCpu(before, after, elapsed);
    out();
    agent.destroy();
  } finally {
    await system.stop();
    await relay.stop();
    await sink.stop();
  }
}

runBenchmark(main);

import { eventStreamName } from '@teamchat/contracts';
import { EventQueueClient, Factory, TestSystem, expectError, expectSuccess, type TestUser } from '@teamchat/testing';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { JSONCodec, connect } from 'nats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What happens to queues when gateways die, restart or are all down, and when clients go
 * away: no event lost, none appended twice, idle queues collected.
 */
describe('event queues across gateway restarts', () => {
  let system: TestSystem;
  let subdomain: string;
  let realmId: number;
  let alice: TestUser, bob: TestUser;
  let general: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const send = async (content: string) =>
    expectSuccess(await system.apiVia(0).post<{ id: number }>('/messages', { type: 'stream', to: general.name, topic: 't', content }, as(alice))).id;

  /** Publishes to JetStream straight, as a service would (no gateway needed). */
  const publishEvent = async (name: string, data: Uint8Array) => {
    const connection = await connect({ servers: system.env.NATS_URL });
    try {
      await connection.jetstream().publish(`${system.env.NATS_SUBJECT_PREFIX}event.messaging.${name}.v1`, data, { msgID: randomUUID() });
    } finally {
      await connection.drain();
    }
  };
  const publishDraftRemoved = (userId: number, draftId: number) =>
    publishEvent('drafts_changed', JSONCodec().encode({ realmId, users: [userId], event: { type: 'drafts', op: 'remove', draft_id: draftId } }));

  beforeAll(async () => {
    system = await TestSystem.start({
      gateways: 2,
      env: { EVENT_HEARTBEAT_SECONDS: '1', EVENT_QUEUE_TIMEOUT_SECONDS: '6', EVENT_FANOUT_ACK_WAIT_SECONDS: '2' },
    });
    const factory = new Factory(system.db);
    const realm = await factory.organization();
    subdomain = realm.subdomain;
    realmId = realm.id;
    alice = await factory.user(realm);
    bob = await factory.user(realm);
    general = await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
  }, 60000);

  afterAll(() => system?.stop());

  it('loses no event and appends none twice when a gateway is killed while fanning out', async () => {
    // A minute's lifespan: restarting a replica under load can outlast the six-second default.
    const queue = await EventQueueClient.register(system.apiVia(0), as(bob), { queue_lifespan_secs: 60 });
    // The client keeps polling (through the surviving replica) while the messages go out.
    const collecting = queue.waitFor('message', 30, 30000);
    const sent: number[] = [];
    for (let i = 0; i < 30; i++) {
      if (i === 10) await system.stopService('gateway#1', 'SIGKILL');
      sent.push(await send(`message ${i}`));
    }
    const received = await collecting;
    // In publication order, even though the events were fanned out by two replicas in turn.
    expect(received.map((event) => (event.message as { id: number }).id)).toEqual(sent);
    // Event ids only increase; nothing arrives after the 30 (no duplicate from a redelivery).
    const eventIds = queue.received.map((event) => event.id);
    expect(eventIds).toEqual([...eventIds].sort((a, b) => a - b));
    expect(new Set(eventIds).size).toBe(eventIds.length);
    await sleep(2500); // longer than the ack wait: any redelivery has happened
    expect((await queue.settle()).filter((event) => event.type === 'message')).toHaveLength(30);

    await system.startService('gateway#1');
    const later = await send('after the restart');
    // Served by the restarted replica: the new event only (the 30 were acknowledged).
    const [last] = await queue.via(system.apiVia(1)).waitFor('message');
    expect(last).toMatchObject({ id: 30, message: expect.objectContaining({ id: later }) });
  }, 60000);

  it('hands the fan-out over in order when the replica holding its lease is killed mid-batch', async () => {
    const redis = new Redis(system.env.REDIS_URL);
    try {
      // The holder of the lease of the organization's fan-out partition (8 partitions by default).
      const holderPid = async () => Number(((await redis.get(`${system.env.REDIS_KEY_PREFIX}eq:{p${realmId % 8}}:fanout-lease`)) ?? '').split(':')[0]);
      const pid = await holderPid();
      const [leader] = [...system.pids()].find(([name, candidate]) => name.startsWith('gateway') && candidate === pid) ?? [];
      expect(leader).toBeDefined();
      const survivor = leader === 'gateway' ? 1 : 0;
      const queue = await EventQueueClient.register(system.apiVia(survivor), as(bob), { event_types: ['drafts'], queue_lifespan_secs: 60 });
      const collecting = queue.waitFor('drafts', 40, 30000);
      // Events straight to JetStream, the lease holder killed while it works through them.
      for (let i = 0; i < 40; i++) {
        if (i === 15) await system.stopService(leader!, 'SIGKILL');
        await publishDraftRemoved(bob.id, 1000 + i);
      }
      const received = await collecting;
      expect(received.map((event) => event.draft_id)).toEqual(Array.from({ length: 40 }, (_, i) => 1000 + i));
      await sleep(2500);
      expect((await queue.settle()).filter((event) => event.type === 'drafts')).toHaveLength(40);
      // The survivor holds the lease now.
      expect(await holderPid()).toBe(system.pids().get(survivor === 0 ? 'gateway' : 'gateway#1'));
      await system.startService(leader!);
    } finally {
      redis.disconnect();
    }
  }, 60000);

  it('gives a queue registered while the fan-out lags only what happened after it was registered', async () => {
    const redis = new Redis(system.env.REDIS_URL);
    const lease = `${system.env.REDIS_KEY_PREFIX}eq:{p${realmId % 8}}:fanout-lease`;
    try {
      const earlier = await EventQueueClient.register(system.apiVia(1), as(bob), { event_types: ['drafts'], queue_lifespan_secs: 60 });
      // The organization's partition held by nobody that fans out: its events wait in JetStream.
      await redis.set(lease, 'held-by-this-test', 'PX', 60000);
      await publishDraftRemoved(bob.id, 501); // announced (its change committed) before the queue exists
      const queue = await EventQueueClient.register(system.apiVia(0), as(bob), { event_types: ['drafts'], queue_lifespan_secs: 60 });
      await publishDraftRemoved(bob.id, 502);
      await redis.del(lease); // a gateway takes the partition over and fans out both
      const [event] = await queue.waitFor('drafts', 1, 20000);
      expect(event).toEqual({ id: 0, type: 'drafts', op: 'remove', draft_id: 502 });
      await sleep(1000);
      expect((await queue.settle()).filter((event) => event.type === 'drafts')).toHaveLength(1);
      // A queue registered before both gets both.
      expect((await earlier.waitFor('drafts', 2)).map((event) => event.draft_id)).toEqual([501, 502]);
    } finally {
      redis.disconnect();
    }
  }, 60000);

  it('delivers events published while every gateway was down once one is back', async () => {
    const queue = await EventQueueClient.register(system.apiVia(0), as(bob), { event_types: ['drafts'], queue_lifespan_secs: 60 });
    await system.stopService('gateway');
    await system.stopService('gateway#1');
    await publishDraftRemoved(bob.id, 41);
    await publishDraftRemoved(bob.id, 42);
    await system.startService('gateway#1');
    const events = await queue.via(system.apiVia(1)).waitFor('drafts', 2);
    expect(events).toEqual([
      { id: 0, type: 'drafts', op: 'remove', draft_id: 41 },
      { id: 1, type: 'drafts', op: 'remove', draft_id: 42 },
    ]);
    await system.startService('gateway');
  }, 60000);

  it('skips a malformed domain event instead of holding up the ones after it', async () => {
    const queue = await EventQueueClient.register(system.apiVia(0), as(bob), { event_types: ['drafts'] });
    await publishEvent('drafts_changed', new TextEncoder().encode('{not json'));
    await publishEvent('message_sent', JSONCodec().encode({ realmId, message: 'not a message' }));
    await publishDraftRemoved(bob.id, 77);
    expect(await queue.waitFor('drafts')).toEqual([{ id: 0, type: 'drafts', op: 'remove', draft_id: 77 }]);
  });

  it('keeps a queue that is being polled and collects one that is left idle', async () => {
    const idle = await EventQueueClient.register(system.apiVia(0), as(bob));
    const polled = await EventQueueClient.register(system.apiVia(1), as(bob));
    // Eight seconds of polling (heartbeats every second or so) outlives the six-second idle timeout.
    const until = Date.now() + 8000;
    while (Date.now() < until) await polled.poll();
    expect(polled.received.some((event) => event.type === 'heartbeat')).toBe(true);
    expectSuccess(await polled.request({ dontBlock: true }));
    const res = await idle.request({ dontBlock: true });
    expectError(res, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${idle.queueId}`, { queue_id: idle.queueId });
  }, 30000);

  it('uses one durable fan-out consumer per partition, shared by all replicas', async () => {
    const connection = await connect({ servers: system.env.NATS_URL });
    try {
      const manager = await connection.jetstreamManager();
      const consumers = await manager.consumers.list(eventStreamName(system.env.NATS_SUBJECT_PREFIX)).next();
      // The gateways share one consumer per partition (other services keep their own, e.g. uploads' attachment links).
      const names = consumers.map((consumer) => consumer.config.durable_name ?? '');
      expect(names.filter((name) => name.startsWith('gateway')).sort()).toEqual(Array.from({ length: 8 }, (_, partition) => `gateway-fanout-${partition}`).sort());
    } finally {
      await connection.drain();
    }
  });

  it('spreads the partitions over the replicas, names their holders in /metrics, and hands a dead replica’s to the other', async () => {
    /** The partitions a replica says (on /metrics) it fans out. */
    const heldBy = async (replica: number) => {
      const text = await (await fetch(new URL('/metrics', system.apiVia(replica).baseUrl))).text();
      const pid = system.pids().get(replica === 0 ? 'gateway' : 'gateway#1');
      return [...text.matchAll(/^event_fanout_partition_held\{partition="(\d+)",replica="(\d+)"\} 1$/gm)]
        .filter((match) => Number(match[2]) === pid)
        .map((match) => Number(match[1]))
        .sort((a, b) => a - b);
    };
    const all = Array.from({ length: 8 }, (_, partition) => partition);
    const until = async (check: () => Promise<boolean>) => {
      const deadline = Date.now() + 20000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('the partitions were not spread as expected');
        await sleep(200);
      }
    };
    // Four each: every partition held, by one replica only.
    await until(async () => {
      const [first, second] = [await heldBy(0), await heldBy(1)];
      return first.length === 4 && second.length === 4 && [...first, ...second].sort((a, b) => a - b).join() === all.join();
    });
    await system.stopService('gateway#1', 'SIGKILL');
    // Its leases run out (two seconds here) and the survivor takes them all.
    await until(async () => (await heldBy(0)).join() === all.join());
    const queue = await EventQueueClient.register(system.apiVia(0), as(bob), { event_types: ['drafts'] });
    await publishDraftRemoved(bob.id, 99);
    expect(await queue.waitFor('drafts')).toEqual([{ id: 0, type: 'drafts', op: 'remove', draft_id: 99 }]);
    // Back again: it gets its share from the survivor.
    await system.startService('gateway#1');
    await until(async () => (await heldBy(0)).length === 4 && (await heldBy(1)).length === 4);
  }, 60000);
});

import { randomBytes } from 'node:crypto';
import { loadConfig } from '@teamchat/platform';
import { TEST_REDIS_URL, clusterViolations, collectScriptRuns, traceScripts } from '@teamchat/testing';
import { Redis } from 'ioredis';
import { EventQueueStore } from './event-queue.store';
import { SCRIPTS } from './event-queue.scripts';
import { queueDescriptor } from './queue-descriptor.fixture';

/**
 * Every event-queue script, run through the store as the services run it, touches only keys it
 * declared in KEYS, and they share one hash slot: what a Redis Cluster needs to run it at all
 * (redis-cluster.spec runs them on one).
 */
describe('the event queue scripts on a Redis Cluster', () => {
  it('declare every key they touch, all in one slot', async () => {
    const store = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:scripts:${randomBytes(4).toString('hex')}:` }));
    const channel = `${store.keys.prefix}trace`;
    const subscriber = new Redis(TEST_REDIS_URL);
    const inspector = new Redis(TEST_REDIS_URL);
    try {
      traceScripts(store.redis, SCRIPTS, channel);
      const { runs, stop } = await collectScriptRuns(subscriber, channel);
      const queue = (queueId: string, userId: number) => queueDescriptor({ queueId, realmId: 3, userId, allPublicStreams: true });
      // Two queues of one user (the second registration prunes the first's entry), one of another.
      await store.create(queue('a', 7));
      await store.create(queue('b', 7));
      await store.create(queue('c', 8));
      const lease = (await store.acquireLease(store.partitionOf(3), 5000))!;
      // Routed from the fan-out's copy of the index: the append checks its version too.
      await store.routeIndex(3, [7, 8], true);
      const { version } = await store.routeIndex(3, [7, 8], true);
      expect(version).toBeDefined();
      await store.appendBatch(
        [
          { deliveries: [{ queueId: 'a', event: '{"type":"x"}' }, { queueId: 'c', event: '{"type":"x"}' }], onceKey: 'one', index: version },
          { deliveries: [{ queueId: 'b', event: '{"type":"y"}' }, { queueId: 'gone', event: '{"type":"y"}' }], onceKey: '' },
        ],
        lease,
      );
      await store.take('a', 3, 7, -1);
      await store.acknowledge([
        { queueId: 'a', realmId: 3, through: 0, holdSeconds: 0 },
        { queueId: 'c', realmId: 3, through: 0, holdSeconds: 0 },
      ]);
      await store.renewLease(lease, 5000);
      await store.releaseLease(lease);
      await store.delete(queue('b', 7));
      // The wake-ups arrive after the replies: wait until every script's run is in.
      const deadline = Date.now() + 5000;
      while (new Set(runs.map((run) => run.script)).size < Object.keys(SCRIPTS).length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await stop();
      expect([...new Set(runs.map((run) => run.script))].sort()).toEqual(Object.keys(SCRIPTS).sort());
      expect(runs.find((run) => run.script === 'eqAppend')?.keys.length).toBeGreaterThan(4);
      expect(await clusterViolations(inspector, runs)).toEqual([]);
    } finally {
      subscriber.disconnect();
      inspector.disconnect();
      await store.onApplicationShutdown();
    }
  });

  it('would notice a script that builds a key of its own, or declares keys of two slots', async () => {
    const inspector = new Redis(TEST_REDIS_URL);
    try {
      const runs = [
        { script: 'sneaky', keys: ['t:{p1}:a'], calls: [['GET', 't:{p1}:a'], ['SET', 't:{p1}:b', '1']] },
        { script: 'spread', keys: ['t:{p1}:a', 't:{p2}:a'], calls: [] },
      ];
      expect(await clusterViolations(inspector, runs)).toEqual(['sneaky: SET on undeclared key t:{p1}:b', 'spread: keys in 2 slots: t:{p1}:a, t:{p2}:a']);
    } finally {
      inspector.disconnect();
    }
  });
});

/**
 * Acknowledging drops exactly the events up to the acknowledged id, whether by a poll read from
 * Redis (TAKE) or written back from memory (ACKNOWLEDGE), for any number of events at once.
 */
describe('dropping acknowledged events', () => {
  let store: EventQueueStore;
  let inspector: Redis;
  const descriptor = queueDescriptor({ queueId: 'q', realmId: 5, userId: 9 });
  const ids = (texts: string[]) => texts.map((text) => (JSON.parse(text) as { id: number; n: number }).n);

  beforeEach(async () => {
    store = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:drop:${randomBytes(4).toString('hex')}:` }));
    inspector = new Redis(TEST_REDIS_URL);
    await store.create(descriptor);
  });
  afterEach(async () => {
    inspector.disconnect();
    await store.onApplicationShutdown();
  });

  const appendNumbered = (from: number, count: number) =>
    store.appendBatch(
      Array.from({ length: count }, (_, k) => ({ deliveries: [{ queueId: 'q', event: `{"n":${from + k}}` }], onceKey: '' })),
      { partition: store.partitionOf(5) },
    );

  it('keeps the events after the acknowledged one, in order, and refuses what it dropped', async () => {
    await appendNumbered(0, 7); // ids 0…6
    expect(ids((await store.take('q', 5, 9, 2)).events)).toEqual([3, 4, 5, 6]);
    // Written back from memory: several events at once, then none, then all.
    expect(await store.acknowledge([{ queueId: 'q', realmId: 5, through: 5, holdSeconds: 0 }])).toEqual([]);
    expect(ids((await store.take('q', 5, 9, 5)).events)).toEqual([6]);
    await store.acknowledge([{ queueId: 'q', realmId: 5, through: 5, holdSeconds: 0 }]);
    await appendNumbered(7, 2); // ids 7, 8
    expect(ids((await store.take('q', 5, 9, 6)).events)).toEqual([7, 8]);
    await store.acknowledge([{ queueId: 'q', realmId: 5, through: 8, holdSeconds: 0 }]);
    expect((await store.take('q', 5, 9, 8)).events).toEqual([]);
    expect(await inspector.llen(store.keys.events(store.partitionOf(5), 'q'))).toBe(0);
    await expect(store.take('q', 5, 9, 4)).rejects.toThrow('An event newer than 8 has already been pruned!');
  });

  it('writes back the acknowledgements of many queues at once, of several organizations, each its own, and names the queues gone', async () => {
    const other = queueDescriptor({ queueId: 'r', realmId: 6, userId: 4 });
    await store.create(other);
    expect(store.partitionOf(6)).not.toBe(store.partitionOf(5));
    await appendNumbered(0, 4); // q: ids 0…3
    await store.appendBatch(
      Array.from({ length: 3 }, (_, k) => ({ deliveries: [{ queueId: 'r', event: `{"n":${10 + k}}` }], onceKey: '' })),
      { partition: store.partitionOf(6) },
    ); // r: ids 0…2
    const acks = [
      { queueId: 'q', realmId: 5, through: 1, holdSeconds: 0 },
      { queueId: 'gone', realmId: 5, through: 0, holdSeconds: 0 },
      { queueId: 'r', realmId: 6, through: 0, holdSeconds: 0 },
    ];
    expect(await store.acknowledge(acks)).toEqual(['gone']);
    expect(ids((await store.take('q', 5, 9, 1)).events)).toEqual([2, 3]);
    expect(ids((await store.take('r', 6, 4, 0)).events)).toEqual([11, 12]);
    await expect(store.take('q', 5, 9, 0)).rejects.toThrow('An event newer than 1 has already been pruned!');
  });

  it('drops by the ids the list holds, when its events begin later than the last acknowledgement', async () => {
    await appendNumbered(0, 3); // ids 0…2
    // The list lost (it expired before its queue): later events start a new one.
    await inspector.del(store.keys.events(store.partitionOf(5), 'q'));
    await appendNumbered(3, 4); // ids 3…6
    expect(ids((await store.take('q', 5, 9, 4)).events)).toEqual([5, 6]);
  });
});

/**
 * APPEND stores each group of queues' texts once per queue without ids, and TAKE writes the ids
 * in: a batch whose queues get different events, a redelivered event inside it, and lists
 * written by the earlier format (each text stored with its id) all read back as Zulip's events.
 */
describe('appending in groups, reading with ids', () => {
  let store: EventQueueStore;
  let inspector: Redis;
  const descriptor = (queueId: string, userId: number) => queueDescriptor({ queueId, realmId: 6, userId });
  const target = () => ({ partition: store.partitionOf(6) });

  beforeEach(async () => {
    store = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:groups:${randomBytes(4).toString('hex')}:` }));
    inspector = new Redis(TEST_REDIS_URL);
    await Promise.all([store.create(descriptor('a', 1)), store.create(descriptor('b', 2)), store.create(descriptor('c', 3))]);
  });
  afterEach(async () => {
    inspector.disconnect();
    await store.onApplicationShutdown();
  });

  it('gives each queue its own events of the batch, in order, and a redelivered event to nobody', async () => {
    const batch = [
      { deliveries: ['a', 'b', 'c'].map((queueId) => ({ queueId, event: '{"type":"one"}' })), onceKey: 'first' },
      { deliveries: [{ queueId: 'b', event: '{"type":"two","for":"b"}' }], onceKey: '' },
      { deliveries: ['a', 'c'].map((queueId) => ({ queueId, event: '{"type":"three"}' })), onceKey: 'third' },
    ];
    expect((await store.appendBatch(batch, target())).sort()).toEqual(['a', 'b', 'c']);
    expect((await store.take('a', 6, 1, -1)).events).toEqual(['{"id":0,"type":"one"}', '{"id":1,"type":"three"}']);
    expect((await store.take('b', 6, 2, -1)).events).toEqual(['{"id":0,"type":"one"}', '{"id":1,"type":"two","for":"b"}']);
    // Again: the events with once-keys were appended already; the one without goes again.
    expect(await store.appendBatch(batch, target())).toEqual(['b']);
    expect((await store.take('b', 6, 2, 0)).events).toEqual(['{"id":1,"type":"two","for":"b"}', '{"id":2,"type":"two","for":"b"}']);
    expect((await store.take('c', 6, 3, 0)).events).toEqual(['{"id":1,"type":"three"}']);
  });

  it('reads texts stored with their ids (the earlier format) as they are, before and among new ones', async () => {
    const partition = store.partitionOf(6);
    // As the earlier APPEND left a queue: its texts with ids 0 and 1 in, and its counter at 1.
    await inspector.rpush(store.keys.events(partition, 'a'), '{"id":0,"type":"old"}', '{"id":1,"type":"old"}');
    await inspector.hset(store.keys.meta(partition, 'a'), 'last', 1);
    await store.appendBatch([{ deliveries: [{ queueId: 'a', event: '{"type":"new"}' }], onceKey: '' }], target());
    expect((await store.take('a', 6, 1, -1)).events).toEqual(['{"id":0,"type":"old"}', '{"id":1,"type":"old"}', '{"id":2,"type":"new"}']);
    expect((await store.take('a', 6, 1, 1)).events).toEqual(['{"id":2,"type":"new"}']);
  });

  const append = (queueIds: string[], type: string) =>
    store.appendBatch([{ deliveries: queueIds.map((queueId) => ({ queueId, event: `{"type":"${type}"}` })), onceKey: '' }], target());
  const keysOf = (queueId: string) => [store.keys.meta(store.partitionOf(6), queueId), store.keys.events(store.partitionOf(6), queueId)];

  it("numbers each queue from 0 on, past the queue whose last id is 0, and gives its list the queue's remaining time", async () => {
    expect(await append(['a'], 'first')).toEqual(['a']);
    // Its last id is 0 now: the next append must still find the queue there.
    expect(await append(['a'], 'second')).toEqual(['a']);
    expect((await store.take('a', 6, 1, -1)).events).toEqual(['{"id":0,"type":"first"}', '{"id":1,"type":"second"}']);
    const [meta, list] = keysOf('a');
    const [metaTtl, listTtl] = await Promise.all([inspector.pttl(meta), inspector.pttl(list)]);
    expect(listTtl).toBeGreaterThan(0);
    expect(listTtl).toBeLessThanOrEqual(metaTtl + 1000);
  });

  it('appends nothing to a queue gone, whatever its last id was, and leaves no key of it behind', async () => {
    await append(['b'], 'one');
    // Expired (or deleted behind the store's back): the keys of 'a' (last id -1) and 'b' (last id 0) are gone.
    await inspector.del(...keysOf('a'), ...keysOf('b'));
    expect(await append(['a', 'b', 'c'], 'later')).toEqual(['c']);
    expect(await inspector.exists(...keysOf('a'), ...keysOf('b'))).toBe(0);
    await expect(store.take('b', 6, 2, -1)).rejects.toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });
});

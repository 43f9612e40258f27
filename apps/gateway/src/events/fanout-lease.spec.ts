import { randomBytes } from 'node:crypto';
import { loadConfig } from '@teamchat/platform';
import { TEST_REDIS_URL } from '@teamchat/testing';
import { EventQueueStore, LeaseLost } from './event-queue.store';
import { queueDescriptor } from './queue-descriptor.fixture';

/** The fan-out partitions' leases in Redis: one holder at a time each, and appends fenced by them. */
describe('the fan-out lease', () => {
  let store: EventQueueStore;
  const partition3 = { partition: 3 };
  // Partition 3's organization (of 8): its queues' keys are in the slot of partition 3's lease.
  const queue = queueDescriptor({ queueId: 'q1', realmId: 3, userId: 7 });

  beforeEach(async () => {
    store = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:lease:${randomBytes(4).toString('hex')}:` }));
    await store.create(queue);
  });
  afterEach(() => store.onApplicationShutdown());

  it('has one holder at a time, renewed and given up only by its holder', async () => {
    const first = await store.acquireLease(3, 5000);
    expect(first).not.toBeNull();
    expect(await store.acquireLease(3, 5000)).toBeNull();
    const impostor = { partition: 3, token: `${process.pid}:not-the-holder` };
    expect(await store.renewLease(impostor, 5000)).toBe(false);
    await store.releaseLease(impostor);
    expect(await store.acquireLease(3, 5000)).toBeNull();
    expect(await store.renewLease(first!, 5000)).toBe(true);
    await store.releaseLease(first!);
    expect(await store.acquireLease(3, 5000)).not.toBeNull();
    // Each partition has its own lease.
    expect(await store.acquireLease(4, 5000)).not.toBeNull();
  });

  it('counts the replicas alive, forgetting those that stopped saying so or left', async () => {
    expect(await store.replicasAlive('a', 5000)).toBe(1);
    expect(await store.replicasAlive('b', 100)).toBe(2);
    expect(await store.replicasAlive('c', 5000)).toBe(3);
    await store.replicaGone('c');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await store.replicasAlive('a', 5000)).toBe(1);
  });

  it('passes to another replica once it runs out', async () => {
    const first = await store.acquireLease(3, 100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await store.acquireLease(3, 5000);
    expect(second).not.toBeNull();
    expect(await store.renewLease(first!, 5000)).toBe(false);
  });

  it('refuses an append under a lease that passed on, and appends nothing of it', async () => {
    const first = await store.acquireLease(3, 100);
    await store.append([{ queueId: 'q1', event: '{"type":"heartbeat"}' }], first!, 'e1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await store.acquireLease(3, 5000);
    await expect(store.append([{ queueId: 'q1', event: '{"type":"heartbeat"}' }], first!, 'e2')).rejects.toBeInstanceOf(LeaseLost);
    await store.append([{ queueId: 'q1', event: '{"type":"heartbeat"}' }], second!, 'e3');
    // e1 and e3 only, with consecutive ids.
    expect((await store.take('q1', 3, 7, -1)).events).toEqual(['{"id":0,"type":"heartbeat"}', '{"id":1,"type":"heartbeat"}']);
  });

  it('appends each event of a batch at most once, by its own once-key', async () => {
    const heartbeat = (n: number) => ({ queueId: 'q1', event: `{"type":"heartbeat","n":${n}}` });
    await store.appendBatch([{ deliveries: [heartbeat(0)], onceKey: 'a' }], partition3);
    // A redelivered batch: 'a' is done, 'b' and 'c' are new.
    await store.appendBatch([
      { deliveries: [heartbeat(0)], onceKey: 'a' },
      { deliveries: [heartbeat(1)], onceKey: 'b' },
      { deliveries: [heartbeat(2)], onceKey: 'c' },
    ], partition3);
    await store.appendBatch([{ deliveries: [heartbeat(2)], onceKey: 'c' }], partition3);
    expect((await store.take('q1', 3, 7, -1)).events).toEqual([
      '{"id":0,"type":"heartbeat","n":0}',
      '{"id":1,"type":"heartbeat","n":1}',
      '{"id":2,"type":"heartbeat","n":2}',
    ]);
  });

  it('cuts an event too large for one script into parts, each at most once, in order', async () => {
    const many = Array.from({ length: 45_000 }, (_, n) => ({ queueId: 'q1', event: `{"type":"heartbeat","n":${n}}` }));
    await store.appendBatch([{ deliveries: many, onceKey: 'big' }], partition3);
    await store.appendBatch([{ deliveries: many, onceKey: 'big' }], partition3);
    const { events } = await store.take('q1', 3, 7, -1);
    expect(events).toHaveLength(45_000);
    expect(events[44_999]).toBe('{"id":44999,"type":"heartbeat","n":44999}');
  });
});

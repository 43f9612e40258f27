import { randomBytes } from 'node:crypto';
import { loadConfig } from '@teamchat/platform';
import { TEST_REDIS_URL } from '@teamchat/testing';
import { EventQueueStore, StaleIndex } from './event-queue.store';
import { queueDescriptor } from './queue-descriptor.fixture';

/**
 * The fan-out's copy of an organization's index (routeIndex): read from Redis once, then
 * answered from memory with its version, which the append checks, so a queue registered
 * meanwhile is never missed.
 */
describe("the fan-out's copy of an organization's index", () => {
  const realmId = 5;
  let store: EventQueueStore;

  beforeEach(() => {
    store = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:route:${randomBytes(4).toString('hex')}:` }));
  });
  afterEach(() => store.onApplicationShutdown());

  const queue = (queueId: string, userId: number, extra: { allPublicStreams?: boolean } = {}) => queueDescriptor({ queueId, realmId, userId, ...extra });
  const target = () => ({ partition: store.partitionOf(realmId) });
  const pending = async (queueId: string, userId: number) => (await store.take(queueId, realmId, userId, -1)).events;

  it('is read from Redis first (unchecked), then answered from memory with its version', async () => {
    await store.create(queue('a', 7));
    await store.create(queue('p', 9, { allPublicStreams: true }));
    const first = await store.routeIndex(realmId, [7, 8], true);
    expect(first).toEqual({ queues: new Map([[7, ['a']]]), publicQueues: ['p'] });
    const second = await store.routeIndex(realmId, [7, 8], true);
    expect(second).toEqual({ queues: new Map([[7, ['a']]]), publicQueues: ['p'], version: { realmId, version: 'p' } });
    // A user it has not read yet: Redis again.
    expect((await store.routeIndex(realmId, [7, 9], false)).version).toBeUndefined();
  });

  it('makes an append routed by a copy older than a registration append nothing; routed again, the new queue is reached', async () => {
    await store.create(queue('a', 7));
    await store.routeIndex(realmId, [7], false);
    const { queues, version } = await store.routeIndex(realmId, [7], false);
    expect(queues.get(7)).toEqual(['a']);
    await store.create(queue('b', 7));

    const deliveries = queues.get(7)!.map((queueId) => ({ queueId, event: '{"type":"x"}' }));
    await expect(store.appendBatch([{ deliveries, onceKey: 'm1', index: version }], target())).rejects.toBeInstanceOf(StaleIndex);
    expect(await pending('a', 7)).toEqual([]);

    const again = await store.routeIndex(realmId, [7], false);
    expect(again).toEqual({ queues: new Map([[7, ['a', 'b']]]), publicQueues: [] });
    const appended = await store.appendBatch([{ deliveries: again.queues.get(7)!.map((queueId) => ({ queueId, event: '{"type":"x"}' })), onceKey: 'm1', index: again.version }], target());
    expect(appended.sort()).toEqual(['a', 'b']);
    expect(await pending('a', 7)).toEqual(['{"id":0,"type":"x"}']);
    expect(await pending('b', 7)).toEqual(['{"id":0,"type":"x"}']);
  });

  it('checks an event the copy says reaches nobody: a queue registered since may be one it should reach', async () => {
    await store.routeIndex(realmId, [7], false);
    const { queues, version } = await store.routeIndex(realmId, [7], false);
    expect(queues.size).toBe(0);
    await store.create(queue('a', 7));
    await expect(store.appendBatch([{ deliveries: [], onceKey: 'm', index: version }], target())).rejects.toBeInstanceOf(StaleIndex);
    expect((await store.routeIndex(realmId, [7], false)).queues.get(7)).toEqual(['a']);
  });

  it('appends as usual while the copy is current', async () => {
    await store.create(queue('a', 7));
    await store.routeIndex(realmId, [7], false);
    const { version } = await store.routeIndex(realmId, [7], false);
    expect(version).toEqual({ realmId, version: 'a' });
    expect(await store.appendBatch([{ deliveries: [{ queueId: 'a', event: '{"type":"x"}' }], onceKey: 'm', index: version }], target())).toEqual(['a']);
  });

  it('drops a queue deleted here at once', async () => {
    await store.create(queue('a', 7));
    await store.create(queue('b', 7, { allPublicStreams: true }));
    await store.routeIndex(realmId, [7], true);
    await store.delete(queue('b', 7, { allPublicStreams: true }));
    const { queues, publicQueues, version } = await store.routeIndex(realmId, [7], true);
    expect({ queues, publicQueues }).toEqual({ queues: new Map([[7, ['a']]]), publicQueues: [] });
    expect(version).toEqual({ realmId, version: 'b' });
  });

  it('drops a queue found gone (deleted through another replica) once an append finds it', async () => {
    const other = new EventQueueStore(loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: store.keys.prefix.slice(0, -'eq:'.length) }));
    await store.create(queue('a', 7));
    await store.create(queue('b', 7, { allPublicStreams: true }));
    await store.routeIndex(realmId, [7], true);
    await other.delete(queue('b', 7, { allPublicStreams: true }));
    await other.onApplicationShutdown();
    const { queues, publicQueues, version } = await store.routeIndex(realmId, [7], true);
    expect(queues.get(7)).toEqual(['a', 'b']); // the copy does not know yet
    expect(publicQueues).toEqual(['b']);
    const deliveries = ['a', 'b'].map((queueId) => ({ queueId, event: '{"type":"x"}' }));
    expect(await store.appendBatch([{ deliveries, onceKey: 'm', index: version }], target())).toEqual(['a']);
    expect(await store.routeIndex(realmId, [7], true)).toEqual({ queues: new Map([[7, ['a']]]), publicQueues: [], version });
  });
});

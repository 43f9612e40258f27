import { randomBytes } from 'node:crypto';
import { loadConfig } from '@teamchat/platform';
import { TEST_REDIS_URL } from '@teamchat/testing';
import pino from 'pino';
import { EventQueueStore } from './event-queue.store';
import type { QueueDescriptor } from './queue-descriptor';
import { queueDescriptor } from './queue-descriptor.fixture';
import { QueueMirror } from './queue-mirror';
import { QueueWakeups } from './queue-wakeups';

/**
 * The mirror of a replica's queues against real Redis: appends heard on the wake channel,
 * reads adopted with what was heard meanwhile, a missed append forgetting the queue, and
 * acknowledgements written back so Redis ends where the client is.
 */
describe('the queue mirror', () => {
  const owner = { realmId: 1, userId: 7, lifespanSeconds: 60 };
  let store: EventQueueStore;
  let mirror: QueueMirror;
  let wakeups: QueueWakeups;
  let queue: QueueDescriptor;

  const event = (n: number) => ({ queueId: queue.queueId, event: `{"type":"test","n":${n}}` });
  const stored = (id: number, n: number) => `{"id":${id},"type":"test","n":${n}}`;
  /** Resolves once the wake channel has carried an append to the queue (this replica heard it). */
  const heardAppend = () => new Promise<void>((resolve) => wakeups.onChange(queue.queueId, resolve));

  beforeEach(async () => {
    const config = loadConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test:mirror:${randomBytes(4).toString('hex')}:` });
    const logger = pino({ level: 'silent' });
    store = new EventQueueStore(config);
    mirror = new QueueMirror(store, logger);
    wakeups = new QueueWakeups(store, mirror, config, logger);
    await wakeups.onModuleInit();
    queue = queueDescriptor({ queueId: randomBytes(8).toString('hex'), ...owner });
    await store.create(queue);
  });
  afterEach(async () => {
    await mirror.onApplicationShutdown();
    await wakeups.onApplicationShutdown();
    await store.onApplicationShutdown();
  });

  /** A poll that the mirror cannot answer reads Redis and is mirrored from then on. */
  const read = async (lastEventId: number) => {
    mirror.beginRead(queue.queueId);
    const result = await store.take(queue.queueId, owner.realmId, owner.userId, lastEventId);
    mirror.adopt(queue.queueId, owner, lastEventId, result);
    return result.events;
  };

  it('answers from memory what it heard appended, in order, once a read from Redis has started it', async () => {
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined(); // never read here
    await store.append([event(0)], { partition: store.partitionOf(owner.realmId) });
    expect(await read(-1)).toEqual([stored(0, 0)]);
    const heard = heardAppend();
    await store.append([event(1), event(2)], { partition: store.partitionOf(owner.realmId) });
    await heard;
    expect(mirror.poll(queue.queueId, 1, 7, 0, 0)).toEqual([stored(1, 1), stored(2, 2)]);
    expect(mirror.poll(queue.queueId, 1, 7, 2, 0)).toEqual([]);
    // Someone else's user, an acknowledgement of events never given, an older one: Redis decides.
    expect(mirror.poll(queue.queueId, 1, 8, 2, 0)).toBeUndefined();
    expect(mirror.poll(queue.queueId, 1, 7, 3, 0)).toBeUndefined();
    expect(mirror.poll(queue.queueId, 1, 7, 1, 0)).toBeUndefined();
  });

  it('hears a batch of events in one wake-up, each queue its own events in order', async () => {
    const other: QueueDescriptor = { ...queue, queueId: randomBytes(8).toString('hex') };
    await store.create(other);
    await read(-1);
    let wakeUps = 0;
    const counting = () => {
      wakeUps++;
      wakeups.onChange(queue.queueId, counting);
    };
    wakeups.onChange(queue.queueId, counting);
    const heard = new Promise<void>((resolve) => wakeups.onChange(other.queueId, resolve));
    await store.appendBatch([
      { deliveries: [event(0), { queueId: other.queueId, event: '{"type":"test","n":9}' }], onceKey: '' },
      { deliveries: [event(1)], onceKey: '' },
      { deliveries: [event(2)], onceKey: '' },
    ], { partition: store.partitionOf(owner.realmId) });
    await heard;
    expect(wakeUps).toBe(1);
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toEqual([stored(0, 0), stored(1, 1), stored(2, 2)]);
    expect((await store.take(other.queueId, 1, 7, -1)).events).toEqual([stored(0, 9)]);
  });

  it('answers a batch for many queues a slice of polls per turn of the event loop, each queue\'s events in the mirror from the start', async () => {
    const others = Array.from({ length: 149 }, () => ({ ...queue, queueId: randomBytes(8).toString('hex') }));
    for (const other of others) await store.create(other);
    await read(-1);
    // A turn of the event loop counted by a setImmediate chain, running while the batch is heard.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const wokenAt = new Map<string, number>();
    let mirroredAtFirstWake: string[] | undefined;
    const all = new Promise<void>((resolve) => {
      for (const q of [...others, queue]) {
        wakeups.onChange(q.queueId, () => {
          mirroredAtFirstWake ??= mirror.poll(queue.queueId, 1, 7, -1, 0);
          wokenAt.set(q.queueId, turn);
          if (wokenAt.size === others.length + 1) resolve();
        });
      }
    });
    await store.appendBatch([{ deliveries: [...others, queue].map((q) => ({ queueId: q.queueId, event: '{"type":"test","n":1}' })), onceKey: '' }], {
      partition: store.partitionOf(owner.realmId),
    });
    await all;
    counting = false;
    const turns = [...wokenAt.values()];
    const perTurn = new Map<number, number>();
    for (const t of turns) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBe(64);
    expect(perTurn.size).toBe(3); // 150 queues: 64, 64, 22
    expect(mirroredAtFirstWake).toEqual([stored(0, 1)]);
  });

  it('keeps the appends heard while a read was on its way, after what the read found', async () => {
    await store.append([event(0)], { partition: store.partitionOf(owner.realmId) });
    mirror.beginRead(queue.queueId);
    const result = await store.take(queue.queueId, owner.realmId, owner.userId, -1);
    // Appended after the read ran, heard before the mirror adopted it.
    const heard = heardAppend();
    await store.append([event(1)], { partition: store.partitionOf(owner.realmId) });
    await heard;
    mirror.adopt(queue.queueId, owner, -1, result);
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toEqual([stored(0, 0), stored(1, 1)]);
  });

  it('forgets a queue whose appends it heard out of order, and one deleted', async () => {
    await read(-1);
    mirror.heardAll(queue.queueId, 5, [stored(5, 5).slice(`{"id":5,`.length)]); // ids 0 to 4 never heard
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined();
    await read(-1);
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toEqual([]);
    const deleted = heardAppend();
    await store.delete(queue);
    await deleted;
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined();
  });

  it('writes acknowledgements answered from memory back to Redis, before any read of the queue there', async () => {
    await store.append([event(0), event(1)], { partition: store.partitionOf(owner.realmId) });
    await read(-1);
    expect(mirror.poll(queue.queueId, 1, 7, 1, 0)).toEqual([]);
    // Not yet written back: Redis still holds both.
    expect(await store.redis.llen(store.keys.events(store.partitionOf(owner.realmId), queue.queueId))).toBe(2);
    await mirror.writeBackOne(queue.queueId);
    expect(await store.redis.llen(store.keys.events(store.partitionOf(owner.realmId), queue.queueId))).toBe(0);
    await expect(store.take(queue.queueId, 1, 7, 0)).rejects.toThrow('An event newer than 1 has already been pruned!');
  });

  it('lets go of a queue left without a poll for half its lifespan', async () => {
    await read(-1);
    mirror.sweep(Date.now() + 29_000);
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toEqual([]);
    mirror.sweep(Date.now() + 31_000); // lifespan 60 s
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined();
  });

  it('forgets everything when the wake channel drops, and mirrors again once it is back', async () => {
    await read(-1);
    mirror.stopListening();
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined();
    await read(-1); // read while not listening: not mirrored
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toBeUndefined();
    mirror.startListening();
    await read(-1);
    expect(mirror.poll(queue.queueId, 1, 7, -1, 0)).toEqual([]);
  });
});

import { randomBytes } from 'node:crypto';
import { loadConfig } from '@teamchat/platform';
import { TEST_REDIS_URL, clusterViolations, collectScriptRuns, traceScripts } from '@teamchat/testing';
import { Redis } from 'ioredis';
import { EventQueueStore } from './event-queue.store';
import { SCRIPTS } from './event-queue.scripts';
import type { QueueDescriptor } from './queue-descriptor';

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
      const queue = (queueId: string, userId: number): QueueDescriptor => ({
        queueId,
        realmId: 3,
        userId,
        eventTypes: null,
        narrow: [],
        applyMarkdown: true,
        clientGravatar: false,
        allPublicStreams: true,
        capabilities: {},
        lifespanSeconds: 60,
      });
      // Two queues of one user (the second registration prunes the first's entry), one of another.
      await store.create(queue('a', 7));
      await store.create(queue('b', 7));
      await store.create(queue('c', 8));
      const lease = (await store.acquireLease(store.partitionOf(3), 5000))!;
      await store.appendBatch(
        [
          { deliveries: [{ queueId: 'a', event: '{"type":"x"}' }, { queueId: 'c', event: '{"type":"x"}' }], onceKey: 'one' },
          { deliveries: [{ queueId: 'b', event: '{"type":"y"}' }, { queueId: 'gone', event: '{"type":"y"}' }], onceKey: '' },
        ],
        lease,
      );
      await store.take('a', 3, 7, -1);
      await store.acknowledge([{ queueId: 'c', realmId: 3, through: 0, holdSeconds: 0 }]);
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

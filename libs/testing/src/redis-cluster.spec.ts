import { Cluster } from 'ioredis';
import { RedisCluster } from './redis-cluster';

/** The harness's cluster: three masters with a replica each, serving every slot, gone afterwards. */
describe('a local Redis Cluster', () => {
  it('starts with every slot served, takes keys across slots, and stops', async () => {
    const cluster = await RedisCluster.start();
    try {
      const client = new Cluster(cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })));
      try {
        await Promise.all(['a', 'b', 'c', 'd'].map((key) => client.set(key, key)));
        expect(await Promise.all(['a', 'b', 'c', 'd'].map((key) => client.get(key)))).toEqual(['a', 'b', 'c', 'd']);
        expect(new Set(await Promise.all(['a', 'b', 'c', 'd'].map((key) => cluster.masterOf(key)))).size).toBeGreaterThan(1);
        const roles = ((await client.call('CLUSTER', 'NODES')) as string).trim().split('\n').map((line) => (/\bmaster\b/.test(line) ? 'master' : 'replica'));
        expect(roles.sort()).toEqual(['master', 'master', 'master', 'replica', 'replica', 'replica']);
      } finally {
        client.disconnect();
      }
    } finally {
      await cluster.stop();
    }
  }, 60000);
});

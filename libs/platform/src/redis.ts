import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { AppConfig } from './config';

export const REDIS = Symbol('REDIS');

/**
 * A Redis client: one node's connection, or a Redis Cluster's (REDIS_CLUSTER_NODES). The two
 * answer the same commands; on a cluster every multi-key command, transaction and script must
 * keep its keys in one hash slot (docs/architecture.md, "Redis keys and hash tags").
 */
export type RedisClient = Redis | Cluster;

export type RedisSettings = Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>;

/** The cluster's seed nodes, or null for one node at REDIS_URL. */
export function clusterNodesOf(config: RedisSettings): { host: string; port: number }[] | null {
  if (!config.REDIS_CLUSTER_NODES) return null;
  return config.REDIS_CLUSTER_NODES.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
}

/** What a cluster's nodes take from REDIS_URL: its user, password and TLS (host, port and db are the cluster's). */
function credentialsOf(url: string): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  const parsed = new URL(url);
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * Every Redis connection of the services comes from here. `options` are per-connection
 * settings (key prefix, lazy connect, retries) that apply to a node's connection and to each of
 * a cluster's. On a cluster, reads go to masters (`scaleReads: 'master'`: a replica may lag
 * behind a write the same request just made) and the client waits for `cluster info` to say ok.
 */
export function createRedisClient(config: RedisSettings, options: RedisOptions = {}): RedisClient {
  const nodes = clusterNodesOf(config);
  if (!nodes) return new Redis(config.REDIS_URL, options);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { keyPrefix, lazyConnect, enableOfflineQueue, enableAutoPipelining, ...perNode } = options;
  const clusterOptions: ClusterOptions = {
    scaleReads: 'master',
    enableReadyCheck: true,
    ...(keyPrefix !== undefined ? { keyPrefix } : {}),
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    // No auto-pipelining on a cluster: ioredis then batches commands of one tick per node, and a
    // batch that meets a slot moving (or keys it files under another node) fails whole ("All keys
    // in the pipeline should belong to the same slots allocation group"): the fan-out's appends
    // failed and were retried out of order under `npm run cluster`.
    enableAutoPipelining: false,
    redisOptions: { ...credentialsOf(config.REDIS_URL), ...perNode },
  };
  return new Cluster(nodes, clusterOptions);
}

/**
 * The process's shared connection; keys are namespaced by REDIS_KEY_PREFIX (`keyPrefix`, '' for
 * a store that prefixes its own). Commands issued in the same tick leave in one write
 * (auto-pipelining, on one node: see createRedisClient for a cluster): the fan-out's look-ups and
 * the per-request rate limit and credential checks cost one system call, not one each.
 */
export function createRedis(config: RedisSettings, keyPrefix: string): RedisClient {
  return createRedisClient(config, { keyPrefix, lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
}

/**
 * A connection for SUBSCRIBE, connected by its caller (lazyConnect). On a cluster, PUBLISH
 * reaches every node, so subscribing on any one node hears every publication.
 */
export function createRedisSubscriber(config: RedisSettings): RedisClient {
  return createRedisClient(config, { lazyConnect: true });
}

export async function pingRedis(redis: RedisClient): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

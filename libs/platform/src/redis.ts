import { Redis } from 'ioredis';

export const REDIS = Symbol('REDIS');

/**
 * One Redis connection per process; keys are namespaced by REDIS_KEY_PREFIX. Commands issued in
 * the same tick leave in one write (auto-pipelining): the fan-out's look-ups and the per-request
 * rate limit and credential checks cost one system call, not one each.
 */
export function createRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, { keyPrefix, lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
}

export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

import { Redis } from 'ioredis';

export const REDIS = Symbol('REDIS');

/** One Redis connection per process; keys are namespaced by REDIS_KEY_PREFIX. */
export function createRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, { keyPrefix, lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
}

export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

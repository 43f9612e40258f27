import type { ConnectionOptions } from 'bullmq';
import type { AppConfig } from './config';

/**
 * BullMQ wants connections of its own (blocking reads, `maxRetriesPerRequest: null`, no ioredis
 * key prefix); its keys are namespaced by the deployment's REDIS_KEY_PREFIX instead.
 */
export function bullmqConnection(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>): {
  connection: ConnectionOptions;
  prefix: string;
} {
  const url = new URL(config.REDIS_URL);
  const db = Number(url.pathname.replace(/^\//, '') || 0);
  return {
    connection: {
      host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: Number(url.port || 6379),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      db: Number.isInteger(db) ? db : 0,
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
    },
    prefix: `${config.REDIS_KEY_PREFIX}bull`,
  };
}

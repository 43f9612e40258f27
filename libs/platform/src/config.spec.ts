import { loadConfig, natsServers } from './config';

describe('configuration', () => {
  it('reads a NATS cluster as its servers, one server as itself', () => {
    expect(natsServers({ NATS_URL: 'nats://127.0.0.1:4222' })).toEqual(['nats://127.0.0.1:4222']);
    expect(natsServers({ NATS_URL: 'nats://a:4222, nats://b:4222 ,nats://c:4222' })).toEqual(['nats://a:4222', 'nats://b:4222', 'nats://c:4222']);
  });

  it('sizes the database pools and the event stream from the environment, with defaults', () => {
    const defaults = loadConfig({});
    expect([defaults.DATABASE_POOL_SIZE, defaults.DATABASE_COLD_POOL_SIZE, defaults.NATS_STREAM_REPLICAS]).toEqual([10, 4, 1]);
    const cluster = loadConfig({ DATABASE_POOL_SIZE: '3', DATABASE_COLD_POOL_SIZE: '1', NATS_STREAM_REPLICAS: '3' });
    expect([cluster.DATABASE_POOL_SIZE, cluster.DATABASE_COLD_POOL_SIZE, cluster.NATS_STREAM_REPLICAS]).toEqual([3, 1, 3]);
    expect(() => loadConfig({ NATS_STREAM_REPLICAS: '0' })).toThrow();
  });
});

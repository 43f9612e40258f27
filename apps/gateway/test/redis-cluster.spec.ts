import { EventQueueClient, Factory, RedisCluster, TestSystem, expectError, expectSuccess, type TestUser } from '@teamchat/testing';
import { Cluster, Redis } from 'ioredis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Organization {
  id: number;
  subdomain: string;
  alice: TestUser;
  bob: TestUser;
  general: { id: number; name: string };
}

/**
 * The whole system on a real Redis Cluster (three masters, a replica each, started here), every
 * service's Redis through REDIS_CLUSTER_NODES: event queues fanned out by partitions whose slots
 * are on different masters, a rate limit, a browser session, presence, a BullMQ job, and the
 * fan-out lease passing to another gateway. A script or transaction whose keys were in more than
 * one slot would fail here with CROSSSLOT.
 */
describe('on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: RedisCluster;
  let system: TestSystem;
  let redis: Cluster;
  let prefix: string;
  const organizations: Organization[] = [];

  const as = (org: Organization, user: TestUser) => ({ auth: user, subdomain: org.subdomain });
  const partitionTag = (org: Organization) => `{p${org.id % 8}}`;
  const send = async (org: Organization, content: string, replica = 0) =>
    expectSuccess(await system.apiVia(replica).post<{ id: number }>('/messages', { type: 'stream', to: org.general.name, topic: 't', content }, as(org, org.alice))).id;

  beforeAll(async () => {
    cluster = await RedisCluster.start();
    system = await TestSystem.start({
      gateways: 2,
      env: {
        REDIS_CLUSTER_NODES: cluster.nodes,
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_API_PER_USER: '10000',
        RATE_LIMIT_API_PER_IP: '10000',
        RATE_LIMIT_AUTH_ATTEMPTS: '2',
        EVENT_HEARTBEAT_SECONDS: '2',
        EVENT_FANOUT_ACK_WAIT_SECONDS: '2',
      },
    });
    prefix = system.env.REDIS_KEY_PREFIX;
    redis = new Cluster(cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })));
    const factory = new Factory(system.db);
    // Organizations until their fan-out partitions are on at least two masters.
    const masters = new Set<string>();
    while (organizations.length < 3 || (masters.size < 2 && organizations.length < 8)) {
      const realm = await factory.organization();
      const alice = await factory.user(realm);
      const bob = await factory.user(realm);
      const general = await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
      const org = { id: realm.id, subdomain: realm.subdomain, alice, bob, general };
      organizations.push(org);
      masters.add(await cluster.masterOf(`${prefix}eq:${partitionTag(org)}:x`));
    }
    expect(masters.size).toBeGreaterThanOrEqual(2);
  }, 120000);

  afterAll(async () => {
    redis?.disconnect();
    await system?.stop();
    await cluster?.stop();
  });

  it('registers, fans out and polls in every organization, each partition in its own slot', async () => {
    const queues = await Promise.all(organizations.map((org) => EventQueueClient.register(system.apiVia(1), as(org, org.bob), { event_types: ['message'] })));
    // The queues live in the cluster, under their organization's partition tag, and nowhere else.
    for (const [index, org] of organizations.entries()) {
      expect(await redis.exists(`${prefix}eq:${partitionTag(org)}:q:${queues[index].queueId}`)).toBe(1);
    }
    const single = new Redis(system.env.REDIS_URL);
    try {
      expect(await single.keys(`${prefix}*`)).toEqual([]);
    } finally {
      single.disconnect();
    }
    const sent = await Promise.all(organizations.map((org, index) => send(org, `hello ${index}`)));
    for (const [index, queue] of queues.entries()) {
      const [event] = await queue.waitFor('message', 1, 15000);
      expect(event.message).toMatchObject({ id: sent[index], content: `hello ${index}` });
    }
  }, 60000);

  it('rate-limits password attempts', async () => {
    const [org] = organizations;
    for (let i = 0; i < 2; i++) {
      expectError(await system.api.post('/fetch_api_key', { username: org.bob.email, password: `wrong-${i}` }, { subdomain: org.subdomain }), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    }
    const blocked = await system.api.post('/fetch_api_key', { username: org.bob.email, password: org.bob.password }, { subdomain: org.subdomain });
    expect(blocked.status).toBe(429);
    expect((blocked.body as { code: string }).code).toBe('RATE_LIMIT_HIT');
  });

  it('logs a browser in and serves /json by its session, and logs it out', async () => {
    const [, org] = organizations;
    const cookies = new Map<string, string>([['csrftoken', 'prelogin-token-0123456789abcdef']]);
    const keep = (setCookies: string[]) => {
      for (const line of setCookies) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        if (/Max-Age=0/.test(line)) cookies.delete(pair.slice(0, eq));
        else cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    };
    const headers = () => ({ Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '), 'X-CSRFToken': cookies.get('csrftoken') ?? '' });
    const login = await system.api.post('/accounts/login', { username: org.alice.email, password: org.alice.password }, { subdomain: org.subdomain, headers: headers() });
    expectSuccess(login);
    keep(login.headers.getSetCookie());
    expect(cookies.get('sessionid')).toBeDefined();
    const me = expectSuccess(await system.apiVia(1).get<{ user_id: number }>('/json/users/me', {}, { subdomain: org.subdomain, headers: headers() }));
    expect(me.user_id).toBe(org.alice.id);
    const logout = await system.api.post('/accounts/logout', {}, { subdomain: org.subdomain, headers: headers() });
    expect(logout.status).toBeLessThan(400);
    const after = await system.api.get('/json/users/me', {}, { subdomain: org.subdomain, headers: headers() });
    expect(after.status).toBe(401);
  });

  it('keeps presence per organization', async () => {
    const [org] = organizations;
    expectSuccess(await system.api.post('/users/me/presence', { status: 'active' }, as(org, org.alice)));
    const body = expectSuccess(await system.apiVia(1).get<{ presences: Record<string, unknown> }>('/realm/presence', {}, as(org, org.bob)));
    expect(Object.keys(body.presences)).toContain(org.alice.email);
    expect(await redis.hexists(`${prefix}presence:{${org.id}}`, String(org.alice.id))).toBe(1);
  });

  it('delivers a scheduled message through its BullMQ job', async () => {
    const [org] = organizations;
    const queue = await EventQueueClient.register(system.api, as(org, org.bob), { event_types: ['message'] });
    const at = Math.floor(Date.now() / 1000) + 2;
    expectSuccess(
      await system.api.post('/scheduled_messages', { type: 'stream', to: org.general.id, topic: 'later', content: 'on time', scheduled_delivery_timestamp: at } as never, as(org, org.alice)),
    );
    const [event] = await queue.waitFor('message', 1, 20000);
    expect(event.message).toMatchObject({ content: 'on time', subject: 'later' });
    // The queue's keys are in the cluster, under the hash-tagged prefix.
    expect(await redis.exists(`${prefix}{bull}:scheduled-delivery:meta`)).toBe(1);
  }, 30000);

  it('hands a partition over to the other gateway when the lease holder is killed', async () => {
    const [org] = organizations;
    const lease = `${prefix}eq:${partitionTag(org)}:fanout-lease`;
    const holderPid = async () => Number(((await redis.get(lease)) ?? '').split(':')[0]);
    const pid = await holderPid();
    const [holder] = [...system.pids()].find(([name, candidate]) => name.startsWith('gateway') && candidate === pid) ?? [];
    expect(holder).toBeDefined();
    const survivor = holder === 'gateway' ? 1 : 0;
    const queue = await EventQueueClient.register(system.apiVia(survivor), as(org, org.bob), { event_types: ['message'], queue_lifespan_secs: 60 });
    await system.stopService(holder!, 'SIGKILL');
    const sent = await send(org, 'after the holder died', survivor);
    const [event] = await queue.waitFor('message', 1, 20000);
    expect(event.message).toMatchObject({ id: sent });
    expect(await holderPid()).toBe(system.pids().get(survivor === 0 ? 'gateway' : 'gateway#1'));
    await sleep(100);
    await system.startService(holder!);
  }, 40000);
});

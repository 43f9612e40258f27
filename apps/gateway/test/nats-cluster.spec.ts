import { eventStreamName } from '@teamchat/contracts';
import { EventQueueClient, Factory, NatsCluster, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { connect } from 'nats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The services on a real three-node NATS cluster (NATS_URL lists the nodes, every JetStream
 * stream and durable consumer with NATS_STREAM_REPLICAS = 3): commands, the event stream and the
 * fan-out keep working when the node leading the event stream is killed, and the node rejoins.
 */
describe('on a three-node NATS cluster', () => {
  let cluster: NatsCluster;
  let system: TestSystem;
  let alice: TestUser, bob: TestUser;
  let subdomain: string;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  /**
   * The event stream's state. JetStream's API does not answer while the cluster elects its
   * leaders after a node is lost (a request times out), so it is asked again, for up to 30 s.
   */
  const streamInfo = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const connection = await connect({ servers: cluster.url.split(',') });
      try {
        return await (await connection.jetstreamManager()).streams.info(eventStreamName(system.env.NATS_SUBJECT_PREFIX));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code !== 'TIMEOUT' && code !== '503') || Date.now() > deadline) throw error;
      } finally {
        await connection.close();
      }
      await sleep(500);
    }
  };
  /** Sends until one is acknowledged (a send meeting the moment of the kill may be refused with 503). */
  const sendUntilAcknowledged = async (content: string, timeoutMs = 30_000): Promise<number> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'cluster', content }, as(alice));
      if (res.status === 200) return res.body.id;
      expect(res.status).toBe(503);
      if (Date.now() > deadline) throw new Error(`no send acknowledged in ${timeoutMs} ms`);
      await sleep(500);
    }
  };

  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    system = await TestSystem.start({ env: { NATS_URL: cluster.url, NATS_STREAM_REPLICAS: '3' } });
    const factory = new Factory(system.db);
    const realm = await factory.organization();
    subdomain = realm.subdomain;
    alice = await factory.user(realm);
    bob = await factory.user(realm);
    await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
  }, 90_000);
  afterAll(async () => {
    try {
      await system?.stop();
    } finally {
      await cluster?.stop();
    }
  });

  it('keeps the event stream and its durable consumers on three nodes', async () => {
    const info = await streamInfo();
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.leader).toMatch(/^n[012]$/);
    expect(info.cluster?.replicas?.map((replica) => replica.current)).toEqual([true, true]);
    // The fan-out's partitions and the services' durable consumers: each on the stream's three nodes.
    const connection = await connect({ servers: cluster.url.split(',') });
    try {
      const consumers = await (await connection.jetstreamManager()).consumers.list(eventStreamName(system.env.NATS_SUBJECT_PREFIX)).next();
      expect(consumers.length).toBeGreaterThan(8);
      expect(consumers.filter((consumer) => consumer.cluster?.replicas?.length !== 2).map((consumer) => consumer.name)).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it('serves commands and delivers events when the node leading the stream dies, and takes the node back', async () => {
    const queue = await EventQueueClient.register(system.api, as(bob), { event_types: ['message'], queue_lifespan_secs: 120 });
    const before = await sendUntilAcknowledged('before the kill');
    expect((await queue.waitFor('message')).map((event) => (event.message as { id: number }).id)).toEqual([before]);

    const leader = cluster.nodeNamed((await streamInfo()).cluster!.leader!);
    await cluster.killNode(leader);
    // One after another while the stream elects a new leader: what JetStream refuses meanwhile is
    // published again before the send is answered, so the events come in the order of the answers.
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push(await sendUntilAcknowledged(`with a node down ${i}`));
    const later = await sendUntilAcknowledged('and another');
    const received = await queue.waitFor('message', 12, 30_000);
    expect(received.map((event) => (event.message as { id: number }).id)).toEqual([before, ...during, later]);
    // Another node leads the stream now.
    const survivor = await streamInfo();
    expect(survivor.cluster?.leader).not.toBe(`n${leader}`);

    cluster.startNode(leader);
    await cluster.waitForJetStream();
    const back = await sendUntilAcknowledged('the node is back');
    expect((await queue.waitFor('message', 13, 30_000)).map((event) => (event.message as { id: number }).id)).toEqual([before, ...during, later, back]);
    // The restarted node catches up: both replicas current again.
    for (let i = 0; i < 40; i++) {
      const replicas = (await streamInfo()).cluster?.replicas ?? [];
      if (replicas.length === 2 && replicas.every((replica) => replica.current)) break;
      await sleep(500);
    }
    expect((await streamInfo()).cluster?.replicas?.map((replica) => replica.current)).toEqual([true, true]);
    expectSuccess(await system.api.get('/users/me', {}, as(alice)));
  }, 120_000);
});

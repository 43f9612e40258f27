import { EventQueueClient, Factory, PgBouncer, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { Client } from 'pg';

/**
 * The services through a real PgBouncer in session pooling (the supported mode with Debian's
 * PgBouncer 1.18, see docs/architecture.md: the connection budget): the hot paths' named prepared
 * statements, Prisma's cold paths, the outbox relay's LISTEN and the event stream all work, and
 * Postgres sees no more server connections than the bouncer's pool however many clients connect.
 */
describe('through PgBouncer (session pooling)', () => {
  const POOL = 40;
  let bouncer: PgBouncer;
  let system: TestSystem;
  let alice: TestUser, bob: TestUser;
  let subdomain: string;
  let databaseName: string;
  const as = (user: TestUser) => ({ auth: user, subdomain });

  beforeAll(async () => {
    bouncer = await PgBouncer.start({ poolSize: POOL });
    // Six services × (2 + 1) pooled connections and one LISTEN each: 24 clients within the 40.
    system = await TestSystem.start({ databaseVia: (url) => bouncer.via(url), env: { DATABASE_POOL_SIZE: '2', DATABASE_COLD_POOL_SIZE: '1' } });
    databaseName = new URL(system.env.DATABASE_URL).pathname.slice(1);
    expect(system.env.DATABASE_URL).toContain(`:${bouncer.port}/`);
    const factory = new Factory(system.db);
    const realm = await factory.organization();
    subdomain = realm.subdomain;
    alice = await factory.user(realm);
    bob = await factory.user(realm);
    await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
  }, 90_000);
  afterAll(async () => {
    await system?.stop();
    await bouncer?.stop();
  });

  it('sends, reads, announces and changes organization data through the bouncer', async () => {
    const queue = await EventQueueClient.register(system.api, as(bob), { event_types: ['message', 'stream'] });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push(expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'bounced', content: `through the bouncer ${i}` }, as(alice))).id);
    }
    const events = await queue.waitFor('message', 20);
    expect(events.map((event) => (event.message as { id: number }).id)).toEqual(ids);
    const history = expectSuccess(
      await system.api.get<{ messages: { id: number }[] }>('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: JSON.stringify([{ operator: 'topic', operand: 'bounced' }]) }, as(bob)),
    );
    expect(history.messages.map((message) => message.id)).toEqual(ids);
    // A cold path (Prisma): a channel created, and its event.
    expectSuccess(await system.api.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'bounced channel' }]) }, as(alice)));
    expect(await system.db.stream.count({ where: { name: 'bounced channel' } })).toBe(1);
  });

  it('keeps Postgres within the bouncer’s pool: the services are its clients, not Postgres’s', async () => {
    const admin = new Client({ connectionString: `postgresql://postgres@127.0.0.1:${bouncer.port}/pgbouncer` });
    await admin.connect();
    try {
      const pools = (await admin.query<{ database: string; cl_active: string; sv_active: string; sv_idle: string; sv_used: string }>('SHOW POOLS')).rows;
      const pool = pools.find((row) => row.database === databaseName)!;
      expect(pool).toBeDefined();
      expect(Number(pool.cl_active)).toBeGreaterThan(6); // every service is connected through it
      expect(Number(pool.sv_active) + Number(pool.sv_idle) + Number(pool.sv_used)).toBeLessThanOrEqual(POOL);
    } finally {
      await admin.end();
    }
    const direct = await system.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, databaseName);
    expect(direct[0].n).toBeLessThanOrEqual(POOL + 10); // the bouncer's, and the harness's own client
  });
});

import { Factory, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';

/**
 * Postgres ends every connection of the services (a restart, a failover, an idle timeout on
 * the way): the services stay up and the next requests open new connections.
 */
describe('losing the database connections', () => {
  let system: TestSystem;
  let member: TestUser;
  let sub: string;

  const send = (content: string) =>
    system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'resilience', content }, { auth: member, subdomain: sub });

  beforeAll(async () => {
    system = await TestSystem.start();
    const factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'lost' });
    member = org.member;
    sub = org.realm.subdomain;
    await factory.channel(org.realm, { name: 'general', subscribers: [org.owner, member] });
  });
  afterAll(() => system.stop());

  it('keeps every service running, and sending and reading work again', async () => {
    const before = expectSuccess(await send('before'));
    const pids = system.pids();

    // Ends every connection to this test's database but the one asking.
    const [{ ended }] = await system.db.$queryRaw<{ ended: number }[]>`
      SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    expect(ended).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(system.pids()).toEqual(pids);

    // A request may meet a connection the pool has not yet seen die; the next ones succeed.
    let after: { id: number } | undefined;
    for (let attempt = 0; attempt < 5 && !after; attempt++) {
      const res = await send('after');
      if (res.status === 200) after = res.body;
    }
    expect(after?.id).toBeGreaterThan(before.id);
    const page = expectSuccess(
      await system.api.get<{ messages: { id: number; content: string }[] }>(
        '/messages',
        { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }], apply_markdown: false },
        { auth: member, subdomain: sub },
      ),
    );
    expect(page.messages.map((m) => m.content)).toEqual(['before', 'after']);
    expect(system.pids()).toEqual(pids);
  });
});

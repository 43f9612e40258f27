import { UsersGroups, UsersGroupsEvents } from '@teamchat/contracts';
import { EventQueueClient, Factory, TestSystem, expectError, expectSuccess, type TestUser } from '@teamchat/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * users-groups through the transactional outbox (issue 29): a change and its events commit
 * together. Made to fail on its event row (a check constraint refusing the event's subject), the
 * change is not stored either; the same request afterwards is stored and announced once, and its
 * writer deletes the row. One of each kind of transaction: a Prisma one (API key regeneration,
 * whose user_access_changed must reach the gateways before the answer; group creation) and a pg
 * one (deactivation).
 */
describe('users-groups and the event outbox', () => {
  let system: TestSystem;
  let subdomain: string;
  let owner: TestUser, member: TestUser, watcher: TestUser;

  beforeAll(async () => {
    system = await TestSystem.start();
    const factory = new Factory(system.db);
    const staff = await factory.organizationWithStaff();
    subdomain = staff.realm.subdomain;
    owner = staff.owner;
    member = staff.member;
    watcher = staff.admin;
  });
  afterAll(() => system?.stop());

  const until = async (condition: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await sleep(50);
    }
  };
  const outboxRows = () => system.db.eventOutbox.count();

  /** Runs `during` while event_outbox refuses rows of `subject` (its own transaction then fails). */
  const refusingEventRows = async <T>(subject: string, during: () => Promise<T>): Promise<T> => {
    await system.db.$executeRawUnsafe(`ALTER TABLE event_outbox ADD CONSTRAINT ug_outbox_spec_refusal CHECK (subject NOT LIKE '%${subject}') NOT VALID`);
    try {
      return await during();
    } finally {
      await system.db.$executeRawUnsafe(`ALTER TABLE event_outbox DROP CONSTRAINT ug_outbox_spec_refusal`);
    }
  };

  it('regenerates an API key with its user_access_changed: refused the row, the old key stays; then the new key, the old one refused', async () => {
    const storedKey = async () => (await system.db.apiKey.findUniqueOrThrow({ where: { userId: member.id } })).key;
    const regenerate = (auth: TestUser) => system.api.post<{ api_key: string }>('/users/me/api_key/regenerate', {}, { auth, subdomain });

    const refused = await refusingEventRows(UsersGroups.UserAdministrationEvents.userAccessChanged.subject, () => regenerate(member));
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await storedKey()).toBe(member.apiKey);
    expectSuccess(await system.api.get('/users/me', {}, { auth: member, subdomain }));

    const { api_key: fresh } = expectSuccess(await regenerate(member));
    expect(fresh).not.toBe(member.apiKey);
    expect(await storedKey()).toBe(fresh);
    // The gateways heard it before the answer: the old key is refused at once, the new one taken.
    expectError(await system.api.get('/users/me', {}, { auth: member, subdomain }), 401, 'UNAUTHORIZED', 'Invalid API key');
    expectSuccess(await system.api.get('/users/me', {}, { auth: { ...member, apiKey: fresh }, subdomain }));
    member = { ...member, apiKey: fresh };
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the row');
  });

  it('creates a user group with its user_group add: refused the row, no group; then stored and announced once', async () => {
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['user_group'] });
    const create = () =>
      system.api.post<{ group_id: number }>('/user_groups/create', { name: 'outbox-group', description: 'd', members: JSON.stringify([member.id]) }, { auth: owner, subdomain });
    const groups = () => system.db.userGroup.count({ where: { realmId: owner.realmId, name: 'outbox-group' } });

    const refused = await refusingEventRows(UsersGroupsEvents.userGroupChanged.subject, create);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await groups()).toBe(0);

    const { group_id: groupId } = expectSuccess(await create());
    expect(await groups()).toBe(1);
    await queue.waitFor('user_group');
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'user_group')).toEqual([
      expect.objectContaining({ op: 'add', group: expect.objectContaining({ id: groupId, name: 'outbox-group', members: [member.id] }) }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the row');
  });

  it('deactivates a user with its events in one pg transaction: refused the row, still active; then deactivated and announced once', async () => {
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user'] });
    const deactivate = () => system.api.delete(`/users/${member.id}`, {}, { auth: owner, subdomain });
    const isActive = async () => (await system.db.user.findUniqueOrThrow({ where: { id: member.id } })).isActive;

    const refused = await refusingEventRows(UsersGroupsEvents.realmUserChanged.subject, deactivate);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await isActive()).toBe(true);
    expectSuccess(await system.api.get('/users/me', {}, { auth: member, subdomain }));

    expectSuccess(await deactivate());
    expect(await isActive()).toBe(false);
    await queue.waitFor('realm_user');
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'realm_user')).toEqual([
      expect.objectContaining({ op: 'update', person: { user_id: member.id, is_active: false } }),
    ]);
    // user_access_changed was written with it: the gateways refuse the deactivated user's key.
    expectError(await system.api.get('/users/me', {}, { auth: member, subdomain }), 401, 'UNAUTHORIZED', 'Account is deactivated');
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the row');
  });
});

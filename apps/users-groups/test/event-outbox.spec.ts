import { UsersGroups, UsersGroupsEvents } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import { EventQueueClient, Factory, TestSystem, expectError, expectSuccess, type TestUser, refusingEventRows } from '@teamchat/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * users-groups through the transactional outbox (issue 29): a change and its events commit
 * together. Made to fail on its event row (a check constraint refusing the event's subject), the
 * change is not stored either; the same request afterwards is stored and announced once, and its
 * writer deletes the row. One of each kind of transaction: a Prisma one (API key regeneration,
 * whose user_access_changed must reach the gateways before the answer; group creation) and a pg
 * one (deactivation); then the account-making and bot paths, whose several writes share one
 * Prisma transaction with their events: a bot's creation and change, a reactivation (a human's,
 * and a bot's that passes to a new owner) and a sign-up from an invitation.
 */
describe('users-groups and the event outbox', () => {
  let system: TestSystem;
  let factory: Factory;
  let realm: { id: number; subdomain: string };
  let subdomain: string;
  let owner: TestUser, member: TestUser, watcher: TestUser;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const staff = await factory.organizationWithStaff();
    realm = staff.realm;
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


  it('regenerates an API key with its user_access_changed: refused the row, the old key stays; then the new key, the old one refused', async () => {
    const storedKey = async () => (await system.db.apiKey.findUniqueOrThrow({ where: { userId: member.id } })).key;
    const regenerate = (auth: TestUser) => system.api.post<{ api_key: string }>('/users/me/api_key/regenerate', {}, { auth, subdomain });

    const refused = await refusingEventRows(system.db, UsersGroups.UserAdministrationEvents.userAccessChanged.subject, () => regenerate(member));
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

    const refused = await refusingEventRows(system.db, UsersGroupsEvents.userGroupChanged.subject, create);
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

    const refused = await refusingEventRows(system.db, UsersGroupsEvents.realmUserChanged.subject, deactivate);
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

  const REALM_BOT = UsersGroups.BotEvents.realmBotChanged.subject;
  const REALM_USER = UsersGroupsEvents.realmUserChanged.subject;
  /** The events of these types a queue got, after a moment for any second copy to arrive. */
  const settled = async (queue: EventQueueClient, ...types: string[]) => {
    await queue.settle(1000);
    return queue.received.filter((event) => types.includes(event.type));
  };

  it('creates a bot with its realm_user, user_group and realm_bot add in one transaction: refused the row, no bot; then stored and announced once', async () => {
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user', 'realm_bot'] });
    const create = () =>
      system.api.post<{ user_id: number }>('/bots', { full_name: 'Outbox Bot', short_name: 'outbox' }, { auth: owner, subdomain });
    const bots = () => system.db.user.count({ where: { realmId: realm.id, isBot: true, fullName: 'Outbox Bot' } });

    const refused = await refusingEventRows(system.db, REALM_BOT, create);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await bots()).toBe(0);

    const { user_id: botId } = expectSuccess(await create());
    expect(await bots()).toBe(1);
    await queue.waitFor('realm_bot');
    expect(await settled(queue, 'realm_user', 'realm_bot')).toEqual([
      expect.objectContaining({ type: 'realm_user', op: 'add', person: expect.objectContaining({ user_id: botId, is_bot: true, bot_owner_id: owner.id }) }),
      expect.objectContaining({ type: 'realm_bot', op: 'add', bot: expect.objectContaining({ user_id: botId, full_name: 'Outbox Bot', owner_id: owner.id }) }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the rows');
  });

  it('changes a bot’s name and defaults in one transaction: refused the row, nothing changed; then both stored and announced once', async () => {
    const { user_id: botId } = expectSuccess(
      await system.api.post<{ user_id: number }>('/bots', { full_name: 'Patched Bot', short_name: 'patched' }, { auth: owner, subdomain }),
    );
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user', 'realm_bot'] });
    const patch = () => system.api.patch(`/bots/${botId}`, { full_name: 'Renamed Bot', default_all_public_streams: true }, { auth: owner, subdomain });
    const stored = () => system.db.user.findUniqueOrThrow({ where: { id: botId }, select: { fullName: true, defaultAllPublicStreams: true } });

    const refused = await refusingEventRows(system.db, REALM_BOT, patch);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await stored()).toEqual({ fullName: 'Patched Bot', defaultAllPublicStreams: false });

    expectSuccess(await patch());
    expect(await stored()).toEqual({ fullName: 'Renamed Bot', defaultAllPublicStreams: true });
    await queue.waitFor('realm_bot', 2);
    expect(await settled(queue, 'realm_user', 'realm_bot')).toEqual([
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: botId, full_name: 'Renamed Bot' } }),
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: botId, full_name: 'Renamed Bot' } }),
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: botId, default_all_public_streams: true } }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the rows');
  });

  it('reactivates a user with its events: refused the row, still deactivated; then active and announced once', async () => {
    const returning = await factory.user(realm, { isActive: false, fullName: 'Rita Returning' });
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user'] });
    const reactivate = () => system.api.post(`/users/${returning.id}/reactivate`, {}, { auth: owner, subdomain });
    const isActive = async () => (await system.db.user.findUniqueOrThrow({ where: { id: returning.id } })).isActive;

    const refused = await refusingEventRows(system.db, REALM_USER, reactivate);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await isActive()).toBe(false);

    expectSuccess(await reactivate());
    expect(await isActive()).toBe(true);
    await queue.waitFor('realm_user');
    expect(await settled(queue, 'realm_user')).toEqual([
      expect.objectContaining({ op: 'update', person: { user_id: returning.id, is_active: true } }),
    ]);
    expectSuccess(await system.api.get('/users/me', {}, { auth: returning, subdomain }));
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the rows');
  });

  it('reactivates a bot whose owner is gone: refused its realm_bot row, neither active nor passed on; then both, announced once', async () => {
    const gone = await factory.user(realm, { isActive: false, fullName: 'Gone Owner' });
    const bot = await factory.user(realm, { isBot: true, botOwnerId: gone.id, isActive: false, fullName: 'Orphan Bot' });
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user', 'realm_bot'] });
    const reactivate = () => system.api.post(`/users/${bot.id}/reactivate`, {}, { auth: owner, subdomain });
    const stored = () => system.db.user.findUniqueOrThrow({ where: { id: bot.id }, select: { isActive: true, botOwnerId: true } });

    const refused = await refusingEventRows(system.db, REALM_BOT, reactivate);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await stored()).toEqual({ isActive: false, botOwnerId: gone.id });

    expectSuccess(await reactivate());
    expect(await stored()).toEqual({ isActive: true, botOwnerId: owner.id });
    await queue.waitFor('realm_bot', 2);
    // realm_user is_active, the bot's administrators (its return, its new owner), everyone its owner.
    expect(await settled(queue, 'realm_user', 'realm_bot')).toEqual([
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: true } }),
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: true } }),
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }),
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the rows');
  });

  it('signs up from an invitation with its realm_user add and invites_changed: refused the row, no account and the invitation pending; then both, once', async () => {
    const key = Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');
    const email = `outbox-signup-${key.slice(0, 6)}@example.org`;
    await system.db.preregistrationUser.create({
      data: { realmId: realm.id, email, referredById: owner.id, invitedAs: Role.MEMBER, includeRealmDefaultSubscriptions: false, notifyReferrerOnJoin: false, key },
    });
    const form = await system.api.get<string>(`/accounts/do_confirm/${key}`, {}, { subdomain, headers: { Accept: 'text/html' } });
    const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(String(form.body))?.[1];
    expect(token).toBeDefined();
    const queue = await EventQueueClient.register(system.api, { auth: watcher, subdomain }, { event_types: ['realm_user', 'invites_changed'] });
    const register = () =>
      system.api.post<Record<string, unknown>>(
        '/accounts/register/',
        { csrfmiddlewaretoken: token!, key, full_name: 'Sign Up', password: 'k7#Qz!long' },
        { subdomain, headers: { Accept: 'application/json', Cookie: `csrftoken=${token}` } },
      );
    const accounts = () => system.db.user.count({ where: { realmId: realm.id, deliveryEmail: email } });
    const invitationStatus = async () => (await system.db.preregistrationUser.findUniqueOrThrow({ where: { key } })).status;

    const refused = await refusingEventRows(system.db, UsersGroups.InviteEvents.invitesChanged.subject, register);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await accounts()).toBe(0);
    expect(await invitationStatus()).toBe(0);

    const { user_id: userId } = expectSuccess(await register());
    expect(await accounts()).toBe(1);
    expect(await invitationStatus()).toBe(1);
    await queue.waitFor('invites_changed');
    expect(await settled(queue, 'realm_user', 'invites_changed')).toEqual([
      expect.objectContaining({ type: 'realm_user', op: 'add', person: expect.objectContaining({ user_id: userId, full_name: 'Sign Up' }) }),
      expect.objectContaining({ type: 'invites_changed' }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the rows');
  });
});

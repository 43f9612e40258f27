import { EventQueueClient, Factory, TestSystem, expectError, expectSuccess, type ApiResponse, type Credentials, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` passes or the deadline; the auth cache in tests lives 1 s. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}

describe('API authentication (HTTP Basic email:api_key)', () => {
  let system: TestSystem;
  let factory: Factory;
  let owner: TestUser;
  let member: TestUser;
  const acme = { subdomain: 'acme' };

  const expectUnauthorized = (res: ApiResponse<unknown>, msg: string) => {
    expectError(res, 401, 'UNAUTHORIZED', msg);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  };
  const listUsers = (auth: Credentials | string, subdomain = acme.subdomain) => system.api.get('/users', {}, { subdomain, auth });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: acme.subdomain });
    owner = await factory.user(realm, { role: Role.OWNER });
    member = await factory.user(realm, { role: Role.MEMBER });
  });
  afterAll(() => system.stop());

  it('accepts the right email and API key', async () => {
    const body = expectSuccess(await listUsers(owner));
    expect(body.members).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: owner.id })]));
  });

  it('asks for credentials with 401 and WWW-Authenticate when none are sent', async () => {
    expectUnauthorized(await system.api.get('/users', {}, acme), 'Not logged in: API authentication or user session required');
  });

  it('refuses an Authorization scheme other than Basic with 400', async () => {
    const res = await listUsers(`Bearer ${owner.apiKey}`);
    expectError(res, 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('refuses a Basic header that is not base64 of email:key', async () => {
    expectUnauthorized(await listUsers('Basic !!!not-base64!!!'), 'Invalid authorization header for basic auth');
    expectUnauthorized(await listUsers(basic(`${owner.email}${owner.apiKey}`)), 'Invalid authorization header for basic auth');
    expectUnauthorized(await listUsers('Basic'), 'Invalid authorization header for basic auth');
    expectUnauthorized(await listUsers(`Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')} extra`), 'Invalid authorization header for basic auth');
  });

  it('refuses a well-formed key that belongs to nobody', async () => {
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: 'Z'.repeat(32) }), 'Invalid API key');
  });

  it('refuses a key of the wrong length or alphabet as malformed', async () => {
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: owner.apiKey.slice(0, 31) }), 'Malformed API key');
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: `${owner.apiKey}x` }), 'Malformed API key');
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: `${owner.apiKey.slice(0, 31)}!` }), 'Malformed API key');
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: '' }), 'Malformed API key');
  });

  it("refuses a right key sent with another user's email", async () => {
    expectUnauthorized(await listUsers({ email: member.email, apiKey: owner.apiKey }), 'Invalid API key');
    expectUnauthorized(await listUsers({ email: 'stranger@example.test', apiKey: owner.apiKey }), 'Invalid API key');
  });

  it('matches the email case-insensitively', async () => {
    expectSuccess(await listUsers({ email: owner.email.toUpperCase(), apiKey: owner.apiKey }));
  });

  it('does not match the key case-insensitively', async () => {
    const flipped = [...owner.apiKey].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    expect(flipped).not.toBe(owner.apiKey);
    expectUnauthorized(await listUsers({ email: owner.email, apiKey: flipped }), 'Invalid API key');
  });

  it('refuses a deactivated user', async () => {
    const realm = await factory.organization();
    const gone = await factory.user(realm, { isActive: false });
    expectUnauthorized(await listUsers(gone, realm.subdomain), 'Account is deactivated');
  });

  it('refuses every user of a deactivated organization', async () => {
    const realm = await factory.organization({ deactivated: true });
    const user = await factory.user(realm, { role: Role.OWNER });
    expectUnauthorized(await listUsers(user, realm.subdomain), 'This organization has been deactivated');
  });

  it("refuses a user of one organization on another organization's host", async () => {
    const other = await factory.organization({ subdomain: 'other' });
    const outsider = await factory.user(other, { role: Role.OWNER });
    expectUnauthorized(await listUsers(outsider, acme.subdomain), 'Account is not associated with this subdomain');
    expectUnauthorized(await listUsers(owner, 'other'), 'Account is not associated with this subdomain');
    expectSuccess(await listUsers(outsider, 'other'));
  });

  it('answers a host naming no organization with 404 NONEXISTENT_SUBDOMAIN, with or without credentials', async () => {
    expectError(await listUsers(owner, 'nowhere'), 404, 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
    expectError(await system.api.get('/users', {}, { subdomain: 'nowhere' }), 404, 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
    // The root domain has no organization in these tests either.
    expectError(await listUsers(owner, ''), 404, 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
  });

  it('stops accepting a rotated key within seconds, and accepts the new one', async () => {
    const realm = await factory.organization();
    const user = await factory.user(realm);
    expectSuccess(await listUsers(user, realm.subdomain)); // now cached by the gateway

    const newKey = 'N'.repeat(16) + user.apiKey.slice(0, 16);
    await system.db.apiKey.update({ where: { userId: user.id }, data: { key: newKey } });

    const rotatedOut = await eventually(async () => (await listUsers(user, realm.subdomain)).status === 401);
    expect(rotatedOut).toBe(true);
    expectUnauthorized(await listUsers(user, realm.subdomain), 'Invalid API key');
    expectSuccess(await listUsers({ email: user.email, apiKey: newKey }, realm.subdomain));
  });

  it('stops accepting a user deactivated after their key was cached, within seconds', async () => {
    const realm = await factory.organization();
    const user = await factory.user(realm);
    expectSuccess(await listUsers(user, realm.subdomain));

    await system.db.user.update({ where: { id: user.id }, data: { isActive: false } });

    expect(await eventually(async () => (await listUsers(user, realm.subdomain)).status === 401)).toBe(true);
    expectUnauthorized(await listUsers(user, realm.subdomain), 'Account is deactivated');
  });

  it('does not remember a failed attempt: a key that starts to exist works at once', async () => {
    const realm = await factory.organization();
    const user = await factory.user(realm);
    const futureKey = 'F'.repeat(32);
    expectUnauthorized(await listUsers({ email: user.email, apiKey: futureKey }, realm.subdomain), 'Invalid API key');
    await system.db.apiKey.update({ where: { userId: user.id }, data: { key: futureKey } });
    expectSuccess(await listUsers({ email: user.email, apiKey: futureKey }, realm.subdomain));
  });

  it('answers each credential checked together as it would be answered alone', async () => {
    const realm = await factory.organization();
    const [user, gone] = await Promise.all([factory.user(realm), factory.user(realm, { isActive: false })]);
    const stranger = await factory.user(await factory.organization());
    // Asked for at once, so they go to users-groups in the same batch.
    const [right, wrongKey, malformed, deactivated, elsewhere] = await Promise.all([
      listUsers(user, realm.subdomain),
      listUsers({ email: user.email, apiKey: 'Y'.repeat(32) }, realm.subdomain),
      listUsers({ email: user.email, apiKey: 'short' }, realm.subdomain),
      listUsers(gone, realm.subdomain),
      listUsers(stranger, realm.subdomain),
    ]);
    expectSuccess(right);
    expectUnauthorized(wrongKey, 'Invalid API key');
    expectUnauthorized(malformed, 'Malformed API key');
    expectUnauthorized(deactivated, 'Account is deactivated');
    expectUnauthorized(elsewhere, 'Account is not associated with this subdomain');
  });

  it('checks the credentials that run out together in one call to users-groups', async () => {
    const realm = await factory.organization();
    const users = await Promise.all(Array.from({ length: 10 }, () => factory.user(realm)));
    const queues = await Promise.all(users.map((user) => EventQueueClient.register(system.api, { auth: user, subdomain: realm.subdomain }, { event_types: JSON.stringify(['message']) })));
    /** How often the gateway has called users-groups' authenticate_many, by /metrics. */
    const calls = async () => {
      const text = await (await fetch(new URL('/metrics', system.api.baseUrl))).text();
      return [...text.matchAll(/^command_call_duration_seconds_count\{subject="[^"]*users-groups\.authenticate_many\.v1",outcome="ok"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    };
    // Past their second in the cache, the ten come back at once (as polls do at the next message).
    await sleep(1100);
    const before = await calls();
    for (const res of await Promise.all(queues.map((queue) => queue.request({ dontBlock: true })))) expectSuccess(res);
    expect((await calls()) - before).toBeGreaterThanOrEqual(1);
    expect((await calls()) - before).toBeLessThanOrEqual(3);
  }, 30_000);

  /**
   * With users-groups paused (SIGSTOP), at 1300 ms after `checkedAt` (past the second a
   * credential checked then is remembered for), `poll` is admitted within 500 ms: no check was needed.
   */
  const admittedPastItsTimeWithoutUsersGroups = async (checkedAt: number, poll: () => Promise<ApiResponse<unknown>>) => {
    const usersGroups = system.pids().get('users-groups')!;
    process.kill(usersGroups, 'SIGSTOP');
    try {
      await sleep(1300 - (Date.now() - checkedAt));
      const started = Date.now();
      expectSuccess(await poll());
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      process.kill(usersGroups, 'SIGCONT');
    }
  };

  it('checks a credential in use again before its time runs out, so a poll just past that time needs no users-groups', async () => {
    const realm = await factory.organization();
    const user = await factory.user(realm);
    const queue = await EventQueueClient.register(system.api, { auth: user, subdomain: realm.subdomain }, { event_types: JSON.stringify(['message']) });
    // Remembered afresh for a second from `checkedAt`.
    await sleep(1100);
    const checkedAt = Date.now();
    expectSuccess(await queue.request({ dontBlock: true }));
    // In its last quarter: this poll has it checked again, ahead.
    await sleep(800 - (Date.now() - checkedAt));
    expectSuccess(await queue.request({ dontBlock: true }));
    await sleep(150);
    await admittedPastItsTimeWithoutUsersGroups(checkedAt, () => queue.request({ dontBlock: true }));
  }, 30_000);

  it("keeps a waiting poll's credential checked, so the client's next poll after a long wait needs no users-groups", async () => {
    const realm = await factory.organization();
    const [user, sender] = await Promise.all([factory.user(realm), factory.user(realm)]);
    const register = () => EventQueueClient.register(system.api, { auth: user, subdomain: realm.subdomain }, { event_types: JSON.stringify(['message']) });
    // A client with two queues (a poll of a queue ends the one before it).
    const [queue, other] = await Promise.all([register(), register()]);
    // Run out, so that the waiting poll's own admission remembers it for a second from `checkedAt`.
    await sleep(1100);
    const checkedAt = Date.now();
    const waiting = queue.request();
    // Nothing else uses the credential: only the wait can have it checked again.
    await sleep(950 - (Date.now() - checkedAt));
    // As a client polls again after its wait.
    await admittedPastItsTimeWithoutUsersGroups(checkedAt, () => other.request({ dontBlock: true }));
    // The poll that waited still gets what arrives.
    expectSuccess(await system.api.post('/messages', { type: 'direct', to: JSON.stringify([user.id]), content: 'after the wait' }, { subdomain: realm.subdomain, auth: sender }));
    const answer = await waiting;
    expectSuccess(answer);
    expect(answer.body.events.map((event) => event.type)).toEqual(['message']);
  }, 30_000);
});

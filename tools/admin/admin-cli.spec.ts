import { execFile } from 'node:child_process';
import path from 'node:path';
import { TestSystem, expectError, expectSuccess } from '@teamchat/testing';

const CLI = path.resolve(__dirname, '../../dist/tools/admin/admin-cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The admin command line runs against the test system's own database, so what it creates
 * is served over HTTP by the running services.
 */
describe('admin command line', () => {
  let system: TestSystem;

  const cli = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATABASE_URL: system.env.DATABASE_URL,
            EXTERNAL_URL: system.env.EXTERNAL_URL,
            NATS_URL: system.env.NATS_URL,
            NATS_SUBJECT_PREFIX: system.env.NATS_SUBJECT_PREFIX,
            LOG_LEVEL: 'warn',
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
  const json = async (...args: string[]) => {
    const run = await cli(...args, '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };
  const listUsers = (email: string, apiKey: string, subdomain: string) =>
    system.api.get('/users', {}, { subdomain, auth: { email, apiKey } });

  let acmeOwnerKey: string;

  beforeAll(async () => {
    system = await TestSystem.start();
  });
  afterAll(() => system.stop());

  describe('create-organization', () => {
    it("creates an organization and its owner, and prints the owner's working API key", async () => {
      const run = await cli(
        'create-organization',
        '--subdomain',
        'acme',
        '--name',
        'Acme Corp',
        '--owner-email',
        'boss@acme.example.test',
        '--owner-name',
        'The Boss',
        '--owner-password',
        'first password',
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^subdomain: acme$/m);
      expect(run.stdout).toMatch(/^url: http:\/\/acme\.testserver\.local$/m);
      expect(run.stdout).toMatch(/^owner_email: boss@acme\.example\.test$/m);
      const key = /^api_key: ([A-Za-z0-9]{32})$/m.exec(run.stdout)?.[1];
      expect(key).toBeDefined();
      acmeOwnerKey = key!;

      const members = expectSuccess(await listUsers('boss@acme.example.test', acmeOwnerKey, 'acme')).members as Record<string, unknown>[];
      expect(members).toEqual([expect.objectContaining({ full_name: 'The Boss', role: 100, is_owner: true, email: 'boss@acme.example.test' })]);

      const login = await system.api.post('/fetch_api_key', { username: 'boss@acme.example.test', password: 'first password' }, { subdomain: 'acme' });
      expect(expectSuccess(login).api_key).toBe(acmeOwnerKey);
    });

    it('prints the same result as JSON with --json, and can open the organization to spectators', async () => {
      const result = await json(
        'create-organization',
        '--subdomain',
        'Beta',
        '--name',
        'Beta',
        '--owner-email',
        'lead@beta.example.test',
        '--owner-name',
        'Lead',
        '--public',
      );
      expect(result).toEqual({
        organization_id: expect.any(Number),
        subdomain: 'beta',
        url: 'http://beta.testserver.local',
        owner_user_id: expect.any(Number),
        owner_email: 'lead@beta.example.test',
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      });
      const spectator = await system.api.get('/users', {}, { subdomain: 'beta' });
      expect((expectSuccess(spectator).members as unknown[]).length).toBe(1);
    });

    it('refuses a subdomain that is taken, with exit code 1', async () => {
      const run = await cli('create-organization', '--subdomain', 'acme', '--name', 'Again', '--owner-email', 'x@y.example.test', '--owner-name', 'X');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("error: Subdomain 'acme' is already in use\n");
    });
  });

  describe('create-user', () => {
    it.each([
      ['owner', 100],
      ['administrator', 200],
      ['admin', 200],
      ['moderator', 300],
      ['member', 400],
      ['guest', 600],
      ['300', 300],
    ])('creates a user with role %s (%i)', async (role, expected) => {
      const email = `${role}-user@acme.example.test`;
      const result = await json('create-user', '--organization', 'acme', '--email', email, '--name', `A ${role}`, '--role', role);
      expect(result).toEqual({ user_id: expect.any(Number), email, role: expected, api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
      const row = await system.db.user.findUniqueOrThrow({ where: { id: result.user_id as number } });
      expect({ role: row.role, isBot: row.isBot, fullName: row.fullName }).toEqual({ role: expected, isBot: false, fullName: `A ${role}` });
      expectSuccess(await listUsers(email, result.api_key as string, 'acme'));
    });

    it('creates a member by default, and a generic bot with --bot', async () => {
      const plain = await json('create-user', '--organization', 'acme', '--email', 'plain@acme.example.test', '--name', 'Plain');
      expect(plain.role).toBe(400);
      const bot = await json('create-user', '--organization', 'acme', '--email', 'robot-bot@acme.example.test', '--name', 'Robot', '--bot');
      const row = await system.db.user.findUniqueOrThrow({ where: { id: bot.user_id as number } });
      expect({ isBot: row.isBot, botType: row.botType }).toEqual({ isBot: true, botType: 1 });
    });

    it('subscribes a new member to the default channels, with the API\'s events, but not a guest or a bot', async () => {
      const realm = await system.db.realm.findUniqueOrThrow({ where: { subdomain: 'acme' } });
      const lobby = await system.db.stream.create({ data: { realmId: realm.id, name: 'lobby', isDefault: true } });
      const hidden = await system.db.stream.create({ data: { realmId: realm.id, name: 'was default', isDefault: true, isArchived: true } });
      const events = await system.recordEvents();
      const newcomer = await json('create-user', '--organization', 'acme', '--email', 'newcomer@acme.example.test', '--name', 'New Comer');
      expect(newcomer.default_channels).toEqual(['lobby']);
      const subscribed = await system.db.subscription.findMany({ where: { userId: newcomer.user_id as number, active: true } });
      expect(subscribed.map((s) => s.streamId)).toEqual([lobby.id]);
      const [added] = await events.waitFor<{ users: number[]; event: { type: string; op: string } }>('event.messaging.subscription_changed.v1');
      expect(added).toMatchObject({ users: [newcomer.user_id], event: { type: 'subscription', op: 'add' } });
      for (const extra of [['--role', 'guest'], ['--bot']]) {
        const other = await json('create-user', '--organization', 'acme', '--email', `x${extra.length}@acme.example.test`, '--name', 'X', ...extra);
        expect(other).not.toHaveProperty('default_channels');
        expect(await system.db.subscription.count({ where: { userId: other.user_id as number } })).toBe(0);
      }
      await system.db.stream.updateMany({ where: { id: { in: [lobby.id, hidden.id] } }, data: { isDefault: false } });
    });

    it('refuses an email already used in the organization, whatever its case, with exit code 1', async () => {
      const run = await cli('create-user', '--organization', 'acme', '--email', 'BOSS@acme.example.test', '--name', 'Copy');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("error: Email 'BOSS@acme.example.test' already in use\n");
      expect(await system.db.user.count({ where: { deliveryEmail: { equals: 'boss@acme.example.test', mode: 'insensitive' } } })).toBe(1);
    });

    it('allows the same email in another organization', async () => {
      const result = await json('create-user', '--organization', 'beta', '--email', 'boss@acme.example.test', '--name', 'Boss at Beta');
      expect(result.role).toBe(400);
    });

    it('refuses an invalid email, a role number Zulip does not have, and a short password with exit code 1', async () => {
      const badEmail = await cli('create-user', '--organization', 'acme', '--email', 'not-an-email', '--name', 'X');
      expect({ code: badEmail.code, stderr: badEmail.stderr }).toEqual({ code: 1, stderr: "error: Invalid email 'not-an-email'\n" });
      const badRole = await cli('create-user', '--organization', 'acme', '--email', 'r@acme.example.test', '--name', 'X', '--role', '250');
      expect({ code: badRole.code, stderr: badRole.stderr }).toEqual({ code: 1, stderr: 'error: Invalid role\n' });
      const weak = await cli('create-user', '--organization', 'acme', '--email', 'w@acme.example.test', '--name', 'X', '--password', '123');
      expect({ code: weak.code, stderr: weak.stderr }).toEqual({ code: 1, stderr: 'error: New password is too weak!\n' });
    });
  });

  describe('reset-password', () => {
    it('sets a new password that fetch_api_key accepts, and the old one stops working', async () => {
      const before = await system.db.passwordCredential.findFirstOrThrow({ where: { user: { deliveryEmail: 'boss@acme.example.test', realm: { subdomain: 'acme' } } } });
      const run = await cli('reset-password', '--organization', 'acme', '--email', 'Boss@Acme.Example.Test', '--password', 'second password');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^password: updated$/m);

      const after = await system.db.passwordCredential.findUniqueOrThrow({ where: { userId: before.userId } });
      expect(after.hash).not.toBe(before.hash);
      expect(after.hash).toMatch(/^\$argon2id\$/);

      const on = { subdomain: 'acme' };
      const fresh = await system.api.post('/fetch_api_key', { username: 'boss@acme.example.test', password: 'second password' }, on);
      expect(expectSuccess(fresh).api_key).toBe(acmeOwnerKey);
      const stale = await system.api.post('/fetch_api_key', { username: 'boss@acme.example.test', password: 'first password' }, on);
      expectError(stale, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    });

    it('refuses an unknown user with exit code 1', async () => {
      const run = await cli('reset-password', '--organization', 'acme', '--email', 'ghost@acme.example.test', '--password', 'whatever');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: 'error: No such user: ghost@acme.example.test\n' });
    });
  });

  describe('api-key', () => {
    it("prints the user's current key", async () => {
      const result = await json('api-key', '--organization', 'acme', '--email', 'boss@acme.example.test');
      expect(result).toEqual({ user_id: expect.any(Number), email: 'boss@acme.example.test', api_key: acmeOwnerKey });
    });

    it('replaces the key with --rotate: the new key works and the old one stops within seconds', async () => {
      const result = await json('api-key', '--organization', 'acme', '--email', 'boss@acme.example.test', '--rotate');
      const newKey = result.api_key as string;
      expect(newKey).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(newKey).not.toBe(acmeOwnerKey);

      expectSuccess(await listUsers('boss@acme.example.test', newKey, 'acme'));
      await new Promise((resolve) => setTimeout(resolve, 1200)); // the gateway's auth cache lives 1 s in tests
      const old = await listUsers('boss@acme.example.test', acmeOwnerKey, 'acme');
      expectError(old, 401, 'UNAUTHORIZED', 'Invalid API key');

      const again = await json('api-key', '--organization', 'acme', '--email', 'boss@acme.example.test');
      expect(again.api_key).toBe(newKey);
    });
  });

  describe('list-organizations', () => {
    it('lists every organization with its user count, as JSON', async () => {
      const run = await cli('list-organizations', '--json');
      expect(run.code).toBe(0);
      const list = JSON.parse(run.stdout) as Record<string, unknown>[];
      expect(list.map((o) => o.subdomain)).toEqual(['acme', 'beta']);
      expect(list[0]).toEqual({
        organization_id: expect.any(Number),
        subdomain: 'acme',
        name: 'Acme Corp',
        url: 'http://acme.testserver.local',
        users: 13,
        deactivated: false,
      });
      expect(list[1]).toMatchObject({ subdomain: 'beta', users: 2, deactivated: false });
    });

    it('lists one organization per line as text', async () => {
      const run = await cli('list-organizations');
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^organization_id=\d+ {2}subdomain=acme {2}name=Acme Corp {2}url=http:\/\/acme\.testserver\.local {2}users=13 {2}deactivated=false$/);
    });
  });

  describe('create-channel', () => {
    it('creates a channel as its creator, subscribing the listed users, served over HTTP', async () => {
      const events = await system.recordEvents();
      const owner = await json('api-key', '--organization', 'acme', '--email', 'boss@acme.example.test');
      const created = await json(
        'create-channel', '--organization', 'acme', '--name', 'announcements',
        '--creator-email', 'boss@acme.example.test', '--description', 'News', '--private',
      );
      expect(created).toMatchObject({ name: 'announcements', invite_only: true, subscribed: { [String(owner.user_id)]: ['announcements'] } });
      const res = await system.api.get<{ subscriptions: { name: string; description: string }[] }>(
        '/users/me/subscriptions', {}, { subdomain: 'acme', auth: { email: 'boss@acme.example.test', apiKey: owner.api_key as string } },
      );
      expect(expectSuccess(res).subscriptions).toEqual([expect.objectContaining({ name: 'announcements', description: 'News' })]);
      const [added] = await events.waitFor<{ users: number[]; event: { type: string; op: string } }>(
        'event.messaging.subscription_changed.v1',
      );
      expect(added).toMatchObject({ users: [owner.user_id], event: { type: 'subscription', op: 'add' } });
    });

    it('refuses an invalid channel name with exit code 1 and creates nothing', async () => {
      const before = await system.db.stream.count();
      const run = await cli('create-channel', '--organization', 'acme', '--name', '  ', '--creator-email', 'boss@acme.example.test');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("error: Channel name can't be empty.\n");
      expect(await system.db.stream.count()).toBe(before);
    });
  });

  describe('usage errors exit with code 2', () => {
    it('prints the usage when no command is given', async () => {
      const run = await cli();
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('Usage: npm run admin -- <command> [options]');
    });

    it('prints the usage with exit code 0 for --help', async () => {
      const run = await cli('--help');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: npm run admin -- <command> [options]');
    });

    it.each([
      [['frobnicate'], "Unknown command 'frobnicate'"],
      [['create-user', '--organization', 'acme', '--name', 'No Email'], '--email is required'],
      [['create-organization', '--name', 'X', '--owner-email', 'a@b.example.test'], '--owner-name is required'],
      [['list-organizations', '--bogus'], "Unknown option '--bogus'"],
      [['create-user', '--organization', 'acme', '--email', 'z@acme.example.test', '--name', 'Z', '--role', 'emperor'], "Unknown role 'emperor'"],
      [['api-key', '--organization', 'nowhere', '--email', 'a@b.example.test'], "No organization with subdomain 'nowhere'"],
    ])('refuses %j', async (args, message) => {
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(message);
      expect(run.stderr).toContain('Usage: npm run admin');
      expect(run.stdout).toBe('');
    });
  });
});

import argon2 from 'argon2';
import type { ClientEvent } from '@teamchat/contracts';
import { Role, gravatarUrl } from '@teamchat/zulip';
import { OUTGOING_MAIL_QUEUE, bullmqConnection } from '@teamchat/platform';
import { Queue } from 'bullmq';
import {
  EventQueueClient,
  Factory,
  MailSink,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type QueueEvent,
  type TestUser,
} from '@teamchat/testing';

const REALM_USER = 'event.users-groups.realm_user_changed.v1';
const SETTINGS = 'event.users-groups.user_settings_changed.v1';
const LINK = /(http:\/\/[^\s/]+)\/accounts\/confirm_new_email\/([a-z0-9]+)/;
const TOO_MANY = /^You're making too many attempts! Try again in \d+ seconds\.$/;

/**
 * PATCH /settings for the account itself: a new password (checked against the current one, with
 * login's budget of wrong guesses) and a new address (confirmed by a link mailed to it, through a
 * real SMTP server). Rate limits are on in this system, as in production.
 */
describe('PATCH /settings: password and email address', () => {
  let system: TestSystem;
  let sink: MailSink;
  let factory: Factory;
  let events: EventRecorder;
  let realm: { id: number; subdomain: string };
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser;
  let outsider: TestUser;

  const patch = (user: TestUser, form: Record<string, unknown>) => system.api.patch('/settings', form as never, { auth: user, subdomain: realm.subdomain });
  const fetchApiKey = (username: string, password: string, subdomain = realm.subdomain) =>
    system.api.post('/fetch_api_key', { username, password }, { subdomain });
  const follow = (key: string, options: { subdomain?: string; json?: boolean } = {}) =>
    system.api.get<string | Record<string, unknown>>(`/accounts/confirm_new_email/${key}`, {}, {
      subdomain: options.subdomain ?? realm.subdomain,
      headers: options.json ? { Accept: 'application/json' } : { Accept: 'text/html' },
    });
  const account = (user: { id: number }) => system.db.user.findUniqueOrThrow({ where: { id: user.id }, include: { password: true, apiKey: true } });
  const pending = (user: { id: number }) => system.db.emailChangeRequest.findMany({ where: { userId: user.id } });
  const fresh = (role: number = Role.MEMBER, input: Parameters<Factory['user']>[1] = {}) => factory.user(realm, { role, ...input });
  /** The key in the newest link mailed to `address`. */
  const linkTo = async (address: string, count = 1) => {
    const mails = await sink.waitFor(address, count);
    const match = LINK.exec(mails[count - 1].text);
    if (!match) throw new Error(`no link in ${mails[count - 1].text}`);
    return { origin: match[1], key: match[2], mail: mails[count - 1] };
  };
  let counter = 0;
  const address = (label: string) => `${label}-${Date.now().toString(36)}${counter++}@example.org`;

  /** Addresses at flaky.example are refused this many more times, then accepted. */
  let flakyRefusals = 0;
  /** Waits until no queued mail is left to send (or to retry), so that "no mail" means none was queued. */
  const mailSettled = async () => {
    const { connection, prefix } = bullmqConnection(system.env as { REDIS_URL: string; REDIS_KEY_PREFIX: string });
    const queue = new Queue(OUTGOING_MAIL_QUEUE, { connection, prefix });
    try {
      for (let i = 0; i < 100; i++) {
        const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).every((count) => count === 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('queued mail still unsent');
    } finally {
      await queue.close();
    }
  };

  beforeAll(async () => {
    sink = await MailSink.start({
      refuse: (to) => to.endsWith('@refused.example') || (to.endsWith('@flaky.example') && flakyRefusals-- > 0),
    });
    system = await TestSystem.start({ env: { ...sink.env(), RATE_LIMIT_ENABLED: 'true', MAIL_BACKOFF_MS: '100', MAIL_ATTEMPTS: '3' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'account', name: 'Account Org' });
    realm = org.realm;
    ({ owner, admin, member, guest } = org);
    outsider = await factory.user(await factory.organization({ subdomain: 'account-elsewhere' }));
    events = await system.recordEvents();
  });
  afterAll(async () => {
    await system.stop();
    await sink.stop();
  });

  describe('a new password', () => {
    it('replaces the password when the current one is given; the API key keeps working', async () => {
      const user = await fresh();
      const before = await account(user);
      const res = await patch(user, { old_password: user.password, new_password: 'correct horse battery staple' });
      expectMatchesOpenApi('patch', '/settings', expectSuccess(res));

      const after = await account(user);
      expect(await argon2.verify(after.password!.hash, 'correct horse battery staple')).toBe(true);
      expect(after.apiKey!.key).toBe(before.apiKey!.key);
      // The same key, with the new password only.
      expect(expectSuccess(await fetchApiKey(user.email, 'correct horse battery staple')).api_key).toBe(user.apiKey);
      expectError(await fetchApiKey(user.email, user.password), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
      expectSuccess(await patch(user, { left_side_userlist: true }));
    });

    it.each([
      ['a wrong current password', (user: TestUser) => ({ old_password: `${user.password}x`, new_password: 'correct horse battery staple' })],
      ['no current password', () => ({ new_password: 'correct horse battery staple' })],
      ['an empty current password', () => ({ old_password: '', new_password: 'correct horse battery staple' })],
      // The current password is checked before the new one's strength.
      ['a wrong current password and a weak new one', (user: TestUser) => ({ old_password: `${user.password}x`, new_password: 'abc' })],
    ])('refuses %s with "Wrong password!", changing nothing', async (_case, form) => {
      const user = await fresh();
      const before = await account(user);
      const res = await patch(user, { ...form(user), left_side_userlist: true });
      expectError(res, 400, 'BAD_REQUEST', 'Wrong password!');
      expectMatchesOpenApi('patch', '/settings', res.body, 400);
      expect(await account(user)).toEqual(before);
    });

    it.each(['five5', '', 'password', 'Password123', '123456789', 'qwerty', 'aaaaaaaaaaaa', 'abcdefgh', '987654'])(
      'refuses the weak new password %j ("New password is too weak!"), changing nothing',
      async (weak) => {
        const user = await fresh();
        const before = await account(user);
        expectError(await patch(user, { old_password: user.password, new_password: weak, left_side_userlist: true }), 400, 'BAD_REQUEST', 'New password is too weak!');
        expect(await account(user)).toEqual(before);
      },
    );

    it('takes six characters that are not an obvious guess', async () => {
      const user = await fresh();
      expectSuccess(await patch(user, { old_password: user.password, new_password: 'k7#Qz!' }));
      expect(expectSuccess(await fetchApiKey(user.email, 'k7#Qz!')).api_key).toBe(user.apiKey);
    });

    it('ignores a current password given without a new one', async () => {
      const user = await fresh();
      const before = await account(user);
      expectSuccess(await patch(user, { old_password: 'whatever' }));
      const after = await account(user);
      expect(after.password).toEqual(before.password);
      expectSuccess(await fetchApiKey(user.email, user.password));
    });

    it('after five wrong passwords refuses even the right one, and so does login: one budget per user', async () => {
      const user = await fresh();
      for (let i = 0; i < 5; i++) {
        expectError(await patch(user, { old_password: `wrong ${i}`, new_password: 'correct horse battery staple' }), 400, 'BAD_REQUEST', 'Wrong password!');
      }
      const before = await account(user);
      const res = await patch(user, { old_password: user.password, new_password: 'correct horse battery staple' });
      expect({ status: res.status, code: res.body.code, result: res.body.result }).toEqual({ status: 400, code: 'BAD_REQUEST', result: 'error' });
      expect(res.body.msg).toMatch(TOO_MANY);
      const seconds = Number(/in (\d+) seconds/.exec(String(res.body.msg))![1]);
      expect(seconds).toBeGreaterThan(1700);
      expect(seconds).toBeLessThanOrEqual(1800);
      expect(await account(user)).toEqual(before);
      // POST /fetch_api_key counts the same attempts.
      const login = await fetchApiKey(user.email, user.password);
      expect({ status: login.status, code: login.body.code }).toEqual({ status: 429, code: 'RATE_LIMIT_HIT' });
      // Another user is not affected.
      const other = await fresh();
      expectSuccess(await patch(other, { old_password: other.password, new_password: 'correct horse battery staple' }));
    });

    it('forgets the wrong guesses once the right password is given', async () => {
      const user = await fresh();
      for (let i = 0; i < 4; i++) expectError(await patch(user, { old_password: 'nope', new_password: 'k7#Qz!long' }), 400, 'BAD_REQUEST', 'Wrong password!');
      expectSuccess(await patch(user, { old_password: user.password, new_password: 'k7#Qz!long' }));
      for (let i = 0; i < 4; i++) expectError(await patch(user, { old_password: 'nope', new_password: 'k7#Qz!longer' }), 400, 'BAD_REQUEST', 'Wrong password!');
      expectSuccess(await patch(user, { old_password: 'k7#Qz!long', new_password: 'k7#Qz!longer' }));
    });

    it('refuses where the organization has password login turned off, as a wrong password', async () => {
      const closed = await factory.organization({ subdomain: 'account-nopw', passwordAuthEnabled: false });
      const user = await factory.user(closed);
      const before = await account(user);
      expectError(
        await system.api.patch('/settings', { old_password: user.password, new_password: 'correct horse battery staple' }, { auth: user, subdomain: 'account-nopw' }),
        400,
        'BAD_REQUEST',
        'Wrong password!',
      );
      expect(await account(user)).toEqual(before);
    });
  });

  describe('a new email address', () => {
    it('is only asked for: stored for a day, a link mailed to the new address, nothing changed yet', async () => {
      const user = await fresh(Role.GUEST);
      const target = address('guest-new');
      events.clear();
      const started = Date.now();
      const res = await patch(user, { email: `  ${target}  ` });
      expectMatchesOpenApi('patch', '/settings', expectSuccess(res));

      expect((await account(user)).deliveryEmail).toBe(user.email);
      const [request] = await pending(user);
      expect(request).toMatchObject({ userId: user.id, oldEmail: user.email, newEmail: target });
      expect(request.key).toMatch(/^[a-z2-7]{24}$/);
      expect(request.expiresAt.getTime() - started).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
      expect(request.expiresAt.getTime() - started).toBeLessThanOrEqual(24 * 3600 * 1000 + 60_000);

      const { origin, key, mail } = await linkTo(target);
      expect(origin).toBe('http://account.testserver.local');
      expect(key).toBe(request.key);
      expect(mail).toMatchObject({ from: 'noreply@testserver.local', to: [target] });
      expect(mail.headers.from).toBe('Zulip account security <noreply@testserver.local>');
      expect(mail.subject).toBe('Verify your new email address for account.testserver.local');
      expect(mail.text).toContain(user.email);
      expect(mail.html).toContain(`href="${origin}/accounts/confirm_new_email/${key}"`);
      await mailSettled();
      expect(sink.to(user.email)).toEqual([]);
      expect(await events.publishedByNow(REALM_USER)).toEqual([]);
    });

    it('changes when the link is followed: the new address to those who may see it, Gravatar and API email to everyone, a note to the old address', async () => {
      const user = await fresh();
      const target = address('visible');
      const watcher = await EventQueueClient.register(system.api, { auth: member, subdomain: realm.subdomain }, { event_types: ['realm_user'] });
      expectSuccess(await patch(user, { email: target }));
      const { key } = await linkTo(target);
      events.clear();

      const res = await follow(key);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.body).toContain('Email address changed');
      expect(res.body).toContain(target);

      expect((await account(user)).deliveryEmail).toBe(target);
      expect(await pending(user)).toEqual([]);
      const active = (await system.db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true } })).map((u) => u.id).sort();
      const published = await events.waitFor<ClientEvent>(REALM_USER, 3);
      expect(published.map((e) => e.event.person)).toEqual([
        { user_id: user.id, delivery_email: target },
        {
          user_id: user.id,
          avatar_source: 'G',
          avatar_url: gravatarUrl(target, 1),
          avatar_url_medium: gravatarUrl(target, 1, true),
          avatar_version: 1,
        },
        { user_id: user.id, new_email: target },
      ]);
      for (const event of published) expect([...event.users].sort()).toEqual(active);

      // A member's client hears of it through its queue, as GET /events describes it.
      const delivered = await pollUntil(watcher, 3);
      expect(delivered.map((event) => event.person)).toEqual(published.map((e) => e.event.person));

      const [note] = await sink.waitFor(user.email);
      expect(note.subject).toBe('Email address changed for your account');
      expect(note.text).toContain(target);
      // The API key works with the new address (after the gateway's short credential cache).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expectSuccess(await system.api.patch('/settings', { left_side_userlist: true }, { auth: { email: target, apiKey: user.apiKey }, subdomain: realm.subdomain }));
    });

    it('with an address only administrators may see: the new one reaches them and the user only, and the API email stays a dummy', async () => {
      const user = await fresh(Role.MEMBER, { settings: { email_address_visibility: 3 } });
      const target = address('hidden');
      expectSuccess(await patch(user, { email: target }));
      const { key } = await linkTo(target);
      events.clear();
      expect((await follow(key)).status).toBe(200);
      const published = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(await events.settle(REALM_USER)).toHaveLength(2);
      expect(published[0].event.person).toEqual({ user_id: user.id, delivery_email: target });
      expect([...published[0].users].sort()).toEqual([owner.id, admin.id, user.id].sort());
      expect(published[1].event.person).toHaveProperty('avatar_url', gravatarUrl(target, 1));
      expect(published.some((e) => 'new_email' in (e.event.person as object))).toBe(false);
    });

    it('answers JSON to a client that asks for it', async () => {
      const user = await fresh();
      const target = address('json');
      expectSuccess(await patch(user, { email: target }));
      const { key } = await linkTo(target);
      const res = await follow(key, { json: true });
      expect(expectSuccess(res as never)).toMatchObject({ old_email: user.email, new_email: target });
      expectError((await follow(key, { json: true })) as never, 404, 'NOT_FOUND', "Whoops. We couldn't find your confirmation link in the system.");
    });

    it('works once; a newer request replaces the older link', async () => {
      const user = await fresh();
      const first = address('first');
      const second = address('second');
      expectSuccess(await patch(user, { email: first }));
      const { key: firstKey } = await linkTo(first);
      expectSuccess(await patch(user, { email: second }));
      const { key: secondKey } = await linkTo(second);
      expect((await pending(user)).map((request) => request.newEmail)).toEqual([second]);

      const stale = await follow(firstKey);
      expect(stale.status).toBe(404);
      expect(stale.body).toContain("Whoops. We couldn&#39;t find your confirmation link in the system.");
      expect((await account(user)).deliveryEmail).toBe(user.email);

      // A link checker's HEAD does not use the key up.
      const head = await system.api.request('HEAD', `/accounts/confirm_new_email/${secondKey}`, undefined, { subdomain: realm.subdomain });
      expect(head.status).toBe(200);
      expect(await pending(user)).toHaveLength(1);

      expect((await follow(secondKey)).status).toBe(200);
      expect((await account(user)).deliveryEmail).toBe(second);
      const again = await follow(secondKey);
      expect(again.status).toBe(404);
      expect((await account(user)).deliveryEmail).toBe(second);
    });

    it("refuses expired, malformed and unknown links, and links followed on another organization's host, changing nothing", async () => {
      const user = await fresh();
      const expired = await system.db.emailChangeRequest.create({
        data: { key: 'expiredkeyexpiredkey2345', userId: user.id, oldEmail: user.email, newEmail: address('late'), expiresAt: new Date(Date.now() - 1000) },
      });
      const live = await system.db.emailChangeRequest.create({
        data: { key: 'livekeylivekeylivekey234', userId: user.id, oldEmail: user.email, newEmail: address('live'), expiresAt: new Date(Date.now() + 3600_000) },
      });
      events.clear();
      const cases: [string, string | undefined, number, string][] = [
        [expired.key, undefined, 404, 'This confirmation link has expired or been deactivated.'],
        ['short', undefined, 404, 'This confirmation link is malformed. Make sure you copied the whole link.'],
        ['UPPERCASEKEYUPPERCASEKEY', undefined, 404, 'This confirmation link is malformed. Make sure you copied the whole link.'],
        ['abcdefghijklmnopqrstuvwx', undefined, 404, 'Whoops. We couldn&#39;t find your confirmation link in the system.'],
        [live.key, 'account-elsewhere', 404, 'Whoops. We couldn&#39;t find your confirmation link in the system.'],
        [live.key, 'no-such-org', 404, 'Invalid subdomain'],
      ];
      for (const [key, subdomain, status, text] of cases) {
        const res = await follow(key, { subdomain });
        expect({ key, status: res.status, type: res.headers.get('content-type') }).toEqual({ key, status, type: 'text/html; charset=utf-8' });
        expect(res.body).toContain(text);
      }
      expect((await account(user)).deliveryEmail).toBe(user.email);
      expect((await pending(user)).map((request) => request.key).sort()).toEqual([expired.key, live.key].sort());
      expect(await events.publishedByNow(REALM_USER)).toEqual([]);
    });

    it.each(['not-an-address', 'no-domain@', '@example.org', 'a@b', 'two@@example.org', 'dots..twice@example.org', 'space in@example.org', '"odd one"@example.org', 'x@exa_mple.org', `${'a'.repeat(250)}@example.org`])(
      'refuses the address %j with "Invalid address.", changing nothing and mailing nobody',
      async (bad) => {
        const user = await fresh();
        sink.clear();
        const res = await patch(user, { email: bad, left_side_userlist: true });
        expectError(res, 400, 'BAD_REQUEST', 'Invalid address.');
        expect(await pending(user)).toEqual([]);
        expect((await account(user)).settings).toEqual({});
        await mailSettled();
        expect(sink.mails).toEqual([]);
      },
    );

    it('takes the addresses Django takes: quoted local parts, sub-domains, IP literals, international domains', async () => {
      for (const good of ['"quoted"@example.org', 'first.last+tag@mail.example.co.uk', 'me@[127.0.0.1]', 'me@bücher.example']) {
        const user = await fresh();
        const res = await patch(user, { email: good });
        expect({ good, status: res.status, body: res.body }).toEqual({ good, status: 200, body: { result: 'success', msg: '' } });
        expect((await pending(user)).map((request) => request.newEmail)).toEqual([good]);
      }
    });

    it('refuses an address the organization already has, whatever its case, or that a deactivated account holds; another organization does not count', async () => {
      const user = await fresh();
      const gone = await fresh(Role.MEMBER, { isActive: false });
      sink.clear();
      expectError(await patch(user, { email: member.email.toUpperCase() }), 400, 'BAD_REQUEST', 'Already has an account.');
      expectError(await patch(user, { email: user.email.toUpperCase() }), 400, 'BAD_REQUEST', 'Already has an account.');
      expectError(await patch(user, { email: gone.email }), 400, 'BAD_REQUEST', 'Account has been deactivated.');
      expect(await pending(user)).toEqual([]);
      await mailSettled();
      expect(sink.mails).toEqual([]);
      expectSuccess(await patch(user, { email: outsider.email }));
      expect((await pending(user)).map((request) => request.newEmail)).toEqual([outsider.email]);
    });

    it('does nothing when the address is the current one', async () => {
      const user = await fresh();
      sink.clear();
      expectSuccess(await patch(user, { email: user.email }));
      expect(await pending(user)).toEqual([]);
      await mailSettled();
      expect(sink.mails).toEqual([]);
    });

    it('refuses members and guests where the organization disables changes; administrators and owners may still', async () => {
      const closed = await factory.organizationWithStaff({ subdomain: 'account-locked' });
      await system.db.realm.update({ where: { id: closed.realm.id }, data: { emailChangesDisabled: true } });
      const as = (user: TestUser, email: string) => system.api.patch('/settings', { email }, { auth: user, subdomain: 'account-locked' });
      for (const user of [closed.member, closed.guest]) {
        expectError(await as(user, address('locked')), 400, 'BAD_REQUEST', 'Email address changes are disabled in this organization.');
        expect(await pending(user)).toEqual([]);
      }
      for (const user of [closed.admin, closed.owner]) {
        const target = address('locked-admin');
        expectSuccess(await as(user, target));
        const { origin, key } = await linkTo(target);
        expect(origin).toBe('http://account-locked.testserver.local');
        expect((await follow(key, { subdomain: 'account-locked' })).status).toBe(200);
        expect((await account(user)).deliveryEmail).toBe(target);
      }
    });

    it('checks again when the link is followed: an address taken meanwhile, or changes disabled meanwhile, change nothing', async () => {
      const user = await fresh();
      const target = address('raced');
      expectSuccess(await patch(user, { email: target }));
      const { key } = await linkTo(target);
      const taker = await fresh(Role.MEMBER, { email: target });
      const taken = await follow(key);
      expect(taken.status).toBe(400);
      expect(taken.body).toContain('Already has an account.');
      expect((await account(user)).deliveryEmail).toBe(user.email);
      expect(await pending(user)).toHaveLength(1);

      await system.db.user.update({ where: { id: taker.id }, data: { deliveryEmail: address('moved') } });
      await system.db.realm.update({ where: { id: realm.id }, data: { emailChangesDisabled: true } });
      try {
        const disabled = await follow(key);
        expect(disabled.status).toBe(400);
        expect(disabled.body).toContain('Email address changes are disabled in this organization.');
        expect((await account(user)).deliveryEmail).toBe(user.email);
      } finally {
        await system.db.realm.update({ where: { id: realm.id }, data: { emailChangesDisabled: false } });
      }
      expect((await follow(key)).status).toBe(200);
      expect((await account(user)).deliveryEmail).toBe(target);
    });

    it('allows two requests an hour per user (then 429), not counting refused ones', async () => {
      const user = await fresh();
      expectError(await patch(user, { email: 'not-an-address' }), 400, 'BAD_REQUEST', 'Invalid address.');
      expectError(await patch(user, { email: member.email }), 400, 'BAD_REQUEST', 'Already has an account.');
      expectSuccess(await patch(user, { email: address('budget-1') }));
      expectSuccess(await patch(user, { email: address('budget-2') }));
      const before = await pending(user);
      const settings = (await account(user)).settings;
      // The two accepted requests' mails go out first (a busy machine's queue sent one late, into the count below).
      await mailSettled();
      sink.clear();

      const res = await patch(user, { email: address('budget-3'), left_side_userlist: true });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
      expect(res.body['retry-after']).toBeGreaterThan(3500);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect(await pending(user)).toEqual(before);
      expect((await account(user)).settings).toEqual(settings);
      await mailSettled();
      expect(sink.mails).toEqual([]);
      // Someone else still may.
      expectSuccess(await patch(await fresh(), { email: address('budget-other') }));
    });

    it('answers success whatever the mail server says, and retries the mail until it is accepted', async () => {
      const user = await fresh();
      // Refused twice, then accepted: the third attempt delivers it.
      flakyRefusals = 2;
      const target = `later-${Date.now().toString(36)}@flaky.example`;
      expectSuccess(await patch(user, { email: target, left_side_userlist: true }));
      expect((await pending(user)).map((request) => request.newEmail)).toEqual([target]);
      expect((await account(user)).settings).toMatchObject({ left_side_userlist: true });
      const [mail] = await sink.waitFor(target, 1, 10_000);
      expect(mail.subject).toBe('Verify your new email address for account.testserver.local');
      expect(flakyRefusals).toBe(-1); // refused twice, then asked once more and accepted

      // A server that never accepts: the request still succeeds; the mail fails after every attempt.
      const other = await fresh();
      expectSuccess(await patch(other, { email: 'nobody@refused.example' }));
      await mailSettled();
      expect(sink.to('nobody@refused.example')).toEqual([]);
      expect((await pending(other)).map((request) => request.newEmail)).toEqual(['nobody@refused.example']);
    });

    it('refuses callers without valid credentials, deactivated ones and those of another organization, starting nothing', async () => {
      const gone = await fresh(Role.MEMBER, { isActive: false });
      const target = address('intruder');
      sink.clear();
      await expectCallersRefused(
        (options) => system.api.patch('/settings', { email: target, old_password: member.password, new_password: 'correct horse battery staple' }, options),
        { subdomain: realm.subdomain, member, outsider, deactivated: gone },
      );
      expect(await system.db.emailChangeRequest.count({ where: { newEmail: target } })).toBe(0);
      await mailSettled();
      expect(sink.mails).toEqual([]);
      expectSuccess(await fetchApiKey(member.email, member.password));
    });

    it('is asked for together with other settings in one request', async () => {
      const user = await fresh();
      const target = address('together');
      expectSuccess(await patch(user, { email: target, left_side_userlist: true, full_name: 'Together Again' }));
      expect(await account(user)).toMatchObject({ fullName: 'Together Again', settings: expect.objectContaining({ left_side_userlist: true }) });
      expect((await pending(user)).map((request) => request.newEmail)).toEqual([target]);
    });
  });
});

/** Polls a queue without acknowledging anything until `count` events are pending, checking every answer against the document. */
async function pollUntil(queue: EventQueueClient, count: number): Promise<QueueEvent[]> {
  for (let attempt = 0; ; attempt++) {
    const body = expectSuccess(await queue.request({ dontBlock: true }));
    expectMatchesOpenApi('get', '/events', body);
    const pending = body.events.filter((event) => event.type !== 'heartbeat');
    if (pending.length >= count || attempt > 100) return pending;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

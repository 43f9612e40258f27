import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  MailSink,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type ApiResponse,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const INVITES_CHANGED = 'event.users-groups.invites_changed.v1';
const REALM_USER = 'event.users-groups.realm_user_changed.v1';
const USER_GROUP = 'event.users-groups.user_group_changed.v1';
const SUBSCRIPTION = 'event.messaging.subscription_changed.v1';
const MESSAGE_SENT = 'event.messaging.message_sent.v1';
const INVITE_LINK = /(http:\/\/[^\s/>]+)\/accounts\/do_confirm\/([a-z2-7]{24})/;
const JOIN_LINK = /^http:\/\/invites\.testserver\.local\/join\/([a-z2-7]{24})\/$/;

/**
 * Invitations (POST/GET /invites, DELETE /invites/{id}, resend, POST/DELETE /invites/multiuse) and
 * sign-up from them (the confirmation link's form, POST /accounts/register/, reusable links'
 * /join/<key>/), through a real SMTP sink: every refusal leaves the invitations, the accounts and
 * the mail untouched; the flow ends with a first login by password.
 */
describe('invitations and sign-up', () => {
  let system: TestSystem;
  let sink: MailSink;
  let factory: Factory;
  let events: EventRecorder;
  let realm: { id: number; subdomain: string; name: string };
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, deactivated: TestUser;
  let outsider: TestUser;
  let otherRealm: { id: number; subdomain: string };
  let publicChannel: { id: number; name: string };
  let privateChannel: { id: number; name: string };
  let defaultChannel: { id: number; name: string };
  let foreignChannel: { id: number };
  let team: { id: number };
  let counter = 0;
  const address = (label: string) => `${label}-${Date.now().toString(36)}${counter++}@example.org`;

  const call = (method: 'get' | 'post' | 'delete', path: string, user: TestUser | undefined, form: Record<string, unknown> = {}, subdomain = realm.subdomain) =>
    system.api[method](path, form as never, { auth: user, subdomain });
  const invite = (user: TestUser, form: Record<string, unknown>) => call('post', '/invites', user, { stream_ids: [], ...form });
  const stored = () => system.db.preregistrationUser.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' } });
  const links = () => system.db.multiuseInvite.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' } });
  // Human accounts: the notification bot is made on its first use.
  const accounts = () => system.db.user.count({ where: { isBot: false } });
  /** What a refused request must leave as it was. */
  const snapshot = async () => ({ invites: await stored(), links: await links(), accounts: await accounts(), mails: sink.mails.length });
  const adminsAndOwners = () => [owner.id, admin.id].sort((a, b) => a - b);
  const recipientsOf = (event: ClientEvent) => [...event.users].sort((a, b) => a - b);

  /** The key in the newest link mailed to `to`. */
  const linkTo = async (to: string, count = 1) => {
    const mails = await sink.waitFor(to, count);
    const mail = mails[count - 1];
    const match = INVITE_LINK.exec(mail.text);
    if (!match) throw new Error(`no link in ${mail.text}`);
    return { origin: match[1], key: match[2], mail };
  };
  /** The registration page for a key, with the CSRF cookie it set. */
  const openForm = async (key: string, subdomain = realm.subdomain) => {
    const res = await system.api.get<string>(`/accounts/do_confirm/${key}`, {}, { subdomain, headers: { Accept: 'text/html' } });
    const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(String(res.body))?.[1];
    return { res, token };
  };
  const postForm = (path: string, token: string | undefined, form: Record<string, string>, options: { subdomain?: string; json?: boolean; cookie?: string } = {}) =>
    system.api.post<string | Record<string, unknown>>(path, token ? { csrfmiddlewaretoken: token, ...form } : form, {
      subdomain: options.subdomain ?? realm.subdomain,
      headers: {
        Accept: options.json ? 'application/json' : 'text/html',
        ...(options.cookie ?? token ? { Cookie: `csrftoken=${options.cookie ?? token}` } : {}),
      },
    });
  const register = (key: string, token: string, fullName: string, password: string, options: { json?: boolean } = {}) =>
    postForm('/accounts/register/', token, { key, full_name: fullName, password }, options);
  const fetchApiKey = (username: string, password: string) => system.api.post('/fetch_api_key', { username, password }, { subdomain: realm.subdomain });
  const expectSettled = async (before: Awaited<ReturnType<typeof snapshot>>) => {
    expect(await snapshot()).toEqual(before);
    expect(await events.publishedByNow(INVITES_CHANGED)).toEqual([]);
  };

  beforeAll(async () => {
    sink = await MailSink.start();
    system = await TestSystem.start({ env: { ...sink.env(), MAIL_BACKOFF_MS: '100' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'invites', name: 'Invites Org' });
    realm = org.realm;
    ({ owner, admin, member, guest } = org);
    deactivated = await factory.user(realm, { isActive: false });
    otherRealm = await factory.organization({ subdomain: 'invites-elsewhere' });
    outsider = await factory.user(otherRealm, { role: Role.ADMINISTRATOR });
    publicChannel = await factory.channel(realm, { name: 'lobby', subscribers: [admin, member] });
    privateChannel = await factory.channel(realm, { name: 'backroom', inviteOnly: true, subscribers: [admin] });
    defaultChannel = await factory.channel(realm, { name: 'welcome', subscribers: [owner] });
    await system.db.stream.update({ where: { id: defaultChannel.id }, data: { isDefault: true } });
    foreignChannel = await factory.channel(otherRealm, { name: 'lobby', subscribers: [outsider] });
    team = await factory.userGroup(realm, { name: 'team', members: [owner] });
    // Administrators may add members to "team"; members may not.
    await system.db.userGroup.update({ where: { id: team.id }, data: { canAddMembersGroupId: await factory.systemGroupId(realm, 'role:administrators') } });
    events = await system.recordEvents();
  });
  afterAll(async () => {
    await system.stop();
    await sink.stop();
  });
  beforeEach(() => events.clear());

  describe('POST /invites', () => {
    it('invites each address once, with its own key, role, channels and groups, mails it the link and tells administrators and the inviter', async () => {
      const first = address('first');
      const second = address('second');
      const ownerQueue = await EventQueueClient.register(system.api, { auth: owner, subdomain: realm.subdomain }, { event_types: ['invites_changed'] });
      const memberQueue = await EventQueueClient.register(system.api, { auth: member, subdomain: realm.subdomain }, { event_types: ['invites_changed'] });
      const before = Date.now();
      const res = await invite(admin, {
        invitee_emails: `First Person <${first}>, ${second}\n${first}`,
        invite_expires_in_minutes: 60,
        invite_as: Role.MODERATOR,
        stream_ids: [publicChannel.id, privateChannel.id],
        group_ids: [team.id],
        include_realm_default_subscriptions: true,
        notify_referrer_on_join: false,
      });
      expectMatchesOpenApi('post', '/invites', expectSuccess(res));

      const rows = (await stored()).filter((row) => [first, second].includes(row.email));
      expect(rows.map((row) => row.email)).toEqual([first, second]);
      for (const row of rows) {
        expect(row).toMatchObject({
          referredById: admin.id,
          multiuseInviteId: null,
          invitedAs: Role.MODERATOR,
          streamIds: [publicChannel.id, privateChannel.id],
          groupIds: [team.id],
          includeRealmDefaultSubscriptions: true,
          notifyReferrerOnJoin: false,
          status: 0,
        });
        expect(row.key).toMatch(/^[a-z2-7]{24}$/);
        expect(row.expiresAt!.getTime() - before).toBeGreaterThan(59 * 60_000);
        expect(row.expiresAt!.getTime() - before).toBeLessThan(61 * 60_000);
      }
      expect(rows[0].key).not.toBe(rows[1].key);

      const { origin, key, mail } = await linkTo(first);
      expect(origin).toBe('http://invites.testserver.local');
      expect(key).toBe(rows[0].key);
      expect(mail.subject).toBe('Adam Admin has invited you to join Invites Org');
      expect(mail.headers.from).toBe('Zulip <noreply@testserver.local>');
      expect(mail.text).toContain(admin.email);
      expect(mail.html).toContain(`href="${origin}/accounts/do_confirm/${key}"`);
      expect((await linkTo(second)).key).toBe(rows[1].key);

      const [changed] = await events.waitFor<ClientEvent>(INVITES_CHANGED);
      expect(changed.event).toEqual({ type: 'invites_changed' });
      expect(recipientsOf(changed)).toEqual(adminsAndOwners());
      // Delivered to the queues as Zulip's event: an owner's, not a member's.
      const [delivered] = await ownerQueue.waitFor('invites_changed');
      expect(delivered).toEqual({ type: 'invites_changed', id: expect.any(Number) });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: ownerQueue.queueId, events: [delivered] });
      expect(await memberQueue.settle()).toEqual([]);
    });

    it('lets a member invite members and guests to channels they may read; the member hears invites_changed too; an address may be invited twice', async () => {
      const target = address('twice');
      expectSuccess(await invite(member, { invitee_emails: target, stream_ids: [publicChannel.id, defaultChannel.id] }));
      expectSuccess(await invite(member, { invitee_emails: target, invite_as: Role.GUEST }));
      const rows = (await stored()).filter((row) => row.email === target);
      expect(rows.map((row) => [row.invitedAs, row.referredById, row.includeRealmDefaultSubscriptions, row.notifyReferrerOnJoin])).toEqual([
        [Role.MEMBER, member.id, false, true],
        [Role.GUEST, member.id, false, true],
      ]);
      // Zulip's default lifetime: ten days.
      expect(rows[0].expiresAt!.getTime() - rows[0].invitedAt.getTime()).toBeGreaterThan(10 * 24 * 3600_000 - 60_000);
      await sink.waitFor(target, 2);
      const changed = await events.waitFor<ClientEvent>(INVITES_CHANGED, 2);
      expect(recipientsOf(changed[0])).toEqual([...adminsAndOwners(), member.id].sort((a, b) => a - b));
    });

    it('stores an invitation that never expires when invite_expires_in_minutes is null', async () => {
      const target = address('forever');
      expectSuccess(await invite(owner, { invitee_emails: target, invite_expires_in_minutes: null }));
      expect((await stored()).find((row) => row.email === target)!.expiresAt).toBeNull();
    });

    it('skips addresses already in use, invites the rest, and says so (INVITATION_FAILED, sent_invitations true)', async () => {
      const fresh = address('fresh');
      const res = await invite(admin, { invitee_emails: `${member.email.toUpperCase()}, ${deactivated.email}, ${fresh}` });
      expectError(res, 400, 'INVITATION_FAILED', "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", {
        errors: [
          [member.email.toUpperCase(), 'Already has an account.', false],
          [deactivated.email, 'Account has been deactivated.', true],
        ],
        sent_invitations: true,
        license_limit_reached: false,
        daily_limit_reached: false,
      });
      expectMatchesOpenApi('post', '/invites', res.body, 400);
      expect((await stored()).filter((row) => row.email === fresh)).toHaveLength(1);
      await sink.waitFor(fresh);
      expect(sink.to(member.email)).toEqual([]);
      await events.waitFor(INVITES_CHANGED);
    });

    it.each([
      ['everyone already has an account', () => `${member.email}, ${admin.email}`, "We weren't able to invite anyone.", () => [
        [member.email, 'Already has an account.', false],
        [admin.email, 'Already has an account.', false],
      ]],
      ['an address is invalid', () => `valid-${counter++}@example.org, not-an-address, ${member.email}`, "Some emails did not validate, so we didn't send any invitations.", () => [
        ['not-an-address', 'Invalid address.', false],
        [member.email, 'Already has an account.', false],
      ]],
    ])('invites nobody when %s', async (_case, emails, msg, errors) => {
      const before = await snapshot();
      expectError(await invite(admin, { invitee_emails: emails() }), 400, 'INVITATION_FAILED', msg, {
        errors: errors(),
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      });
      await expectSettled(before);
    });

    it('refuses what the inviter may not do, in Zulip’s order and words, changing nothing', async () => {
      const target = address('refused');
      const cases: [TestUser, Record<string, unknown>, number, string, string][] = [
        [guest, { invitee_emails: target }, 400, 'BAD_REQUEST', 'Not allowed for guest users'],
        [member, { invitee_emails: target, invite_as: Role.ADMINISTRATOR }, 400, 'BAD_REQUEST', 'Must be an organization administrator'],
        [member, { invitee_emails: target, invite_as: Role.MODERATOR }, 400, 'BAD_REQUEST', 'Must be an organization administrator'],
        [admin, { invitee_emails: target, invite_as: Role.OWNER }, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'],
        [admin, { invitee_emails: target, invite_as: 500 }, 400, 'BAD_REQUEST', 'Invalid invite_as'],
        [admin, { invitee_emails: '' }, 400, 'BAD_REQUEST', 'You must specify at least one email address.'],
        [admin, { invitee_emails: target, stream_ids: [publicChannel.id, 2_000_000_000] }, 400, 'BAD_REQUEST', 'Invalid channel ID 2000000000. No invites were sent.'],
        [admin, { invitee_emails: target, stream_ids: [foreignChannel.id] }, 400, 'BAD_REQUEST', `Invalid channel ID ${foreignChannel.id}. No invites were sent.`],
        // A private channel the member is not subscribed to is not theirs to give.
        [member, { invitee_emails: target, stream_ids: [privateChannel.id] }, 400, 'BAD_REQUEST', `Invalid channel ID ${privateChannel.id}. No invites were sent.`],
        [member, { invitee_emails: target, group_ids: [team.id] }, 400, 'BAD_REQUEST', 'Insufficient permission'],
        [admin, { invitee_emails: target, group_ids: [await factory.systemGroupId(realm, 'role:members')] }, 400, 'BAD_REQUEST', 'Insufficient permission'],
        [admin, { invitee_emails: target, invite_expires_in_minutes: 9_000_000_000_000 }, 400, 'BAD_REQUEST', 'Invalid invite_expires_in_minutes'],
        [admin, { invitee_emails: target, stream_ids: '"lobby"' }, 400, 'BAD_REQUEST', 'stream_ids is not a list'],
      ];
      const before = await snapshot();
      for (const [user, form, status, code, msg] of cases) {
        const res = await invite(user, form);
        expectError(res, status, code, msg);
      }
      expectError(await call('post', '/invites', admin, { invitee_emails: target }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_ids' argument", { var_name: 'stream_ids' });
      await expectCallersRefused((options) => system.api.post('/invites', { invitee_emails: target, stream_ids: [] }, options), {
        subdomain: realm.subdomain,
        member,
        outsider,
        deactivated,
      });
      await expectSettled(before);
      expect(sink.to(target)).toEqual([]);
    });

    it('holds an organization to 100 invitations a day (Zulip’s max_invites): a request past it invites nobody', async () => {
      const small = await factory.organizationWithStaff({ subdomain: 'invites-limit' });
      const many = Array.from({ length: 101 }, (_, i) => `limit-${i}@example.org`).join(',');
      expectError(await call('post', '/invites', small.admin, { invitee_emails: many, stream_ids: [] }, 'invites-limit'), 400, 'INVITATION_FAILED',
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
        { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true });
      expect(await system.db.preregistrationUser.count({ where: { realmId: small.realm.id } })).toBe(0);
      const hundred = Array.from({ length: 100 }, (_, i) => `limit-${i}@example.org`).join(',');
      expectSuccess(await call('post', '/invites', small.admin, { invitee_emails: hundred, stream_ids: [] }, 'invites-limit'));
      expectError(await call('post', '/invites', small.admin, { invitee_emails: 'one-more@example.org', stream_ids: [] }, 'invites-limit'), 400, 'INVITATION_FAILED',
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
        { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true });
      expect(await system.db.preregistrationUser.count({ where: { realmId: small.realm.id } })).toBe(100);
    });
  });

  describe('GET /invites, DELETE /invites/{invite_id}, POST /invites/{invite_id}/resend', () => {
    let mine: { id: number; email: string; key: string };
    let admins: { id: number; email: string; key: string };
    let expired: { id: number };

    beforeAll(async () => {
      const memberTarget = address('member-invitee');
      const adminTarget = address('admin-invitee');
      expectSuccess(await invite(member, { invitee_emails: memberTarget }));
      expectSuccess(await invite(admin, { invitee_emails: adminTarget, invite_as: Role.ADMINISTRATOR }));
      const rows = await stored();
      mine = rows.find((row) => row.email === memberTarget)!;
      admins = rows.find((row) => row.email === adminTarget)!;
      const old = await system.db.preregistrationUser.create({
        data: { realmId: realm.id, email: address('expired'), referredById: member.id, key: 'expiredkey234567abcdefghi', expiresAt: new Date(Date.now() - 1000) },
      });
      expired = old;
    });

    it('lists the caller’s own unexpired invitations to a member, everyone’s to an administrator, never another organization’s', async () => {
      const res = await call('get', '/invites', member);
      const body = expectSuccess(res) as unknown as { invites: Record<string, unknown>[] };
      expectMatchesOpenApi('get', '/invites', body);
      const row = await system.db.preregistrationUser.findUniqueOrThrow({ where: { id: mine.id } });
      expect(body.invites.find((entry) => entry.id === mine.id)).toEqual({
        id: mine.id,
        email: mine.email,
        invited_by_user_id: member.id,
        invited: Math.floor(row.invitedAt.getTime() / 1000),
        expiry_date: Math.floor(row.expiresAt!.getTime() / 1000),
        invited_as: Role.MEMBER,
        is_multiuse: false,
        notify_referrer_on_join: true,
      });
      expect(body.invites.every((entry) => entry.invited_by_user_id === member.id)).toBe(true);
      expect(body.invites.some((entry) => entry.id === expired.id)).toBe(false);

      const all = (expectSuccess(await call('get', '/invites', admin)) as unknown as { invites: Record<string, unknown>[] }).invites;
      expect(all.some((entry) => entry.id === mine.id) && all.some((entry) => entry.id === admins.id)).toBe(true);
      expect(all.some((entry) => entry.id === expired.id)).toBe(false);
      const elsewhere = (expectSuccess(await call('get', '/invites', outsider, {}, otherRealm.subdomain)) as unknown as { invites: unknown[] }).invites;
      expect(elsewhere).toEqual([]);

      expectError(await call('get', '/invites', guest), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      await expectCallersRefused((options) => system.api.get('/invites', {}, options), { subdomain: realm.subdomain, member, outsider, deactivated });
    });

    it('resends the same link, from the invitation’s creator, to its creator or an administrator', async () => {
      const res = await call('post', `/invites/${mine.id}/resend`, admin);
      expectMatchesOpenApi('post', '/invites/{invite_id}/resend', expectSuccess(res));
      const { key, mail } = await linkTo(mine.email, 2);
      expect(key).toBe(mine.key);
      expect(mail.subject).toBe('Mia Member has invited you to join Invites Org');
      expectSuccess(await call('post', `/invites/${mine.id}/resend`, member));
      await sink.waitFor(mine.email, 3);
    });

    it.each([
      ['someone else’s invitation, to a member', () => member, () => `/invites/${admins.id}`, 'Must be an organization administrator'],
      ['an unknown id', () => admin, () => '/invites/2000000000', 'No such invitation'],
      ['an expired-but-unknown key’s neighbour in another organization', () => outsider, () => `/invites/${mine.id}`, 'No such invitation'],
    ])('refuses %s (revoke and resend), changing nothing', async (_case, who, path, msg) => {
      const before = await snapshot();
      const subdomain = who() === outsider ? otherRealm.subdomain : realm.subdomain;
      expectError(await call('delete', path(), who(), {}, subdomain), 400, 'BAD_REQUEST', msg);
      expectError(await call('post', `${path()}/resend`, who(), {}, subdomain), 400, 'BAD_REQUEST', msg);
      await expectSettled(before);
    });

    it('refuses an owner’s invitation to an administrator who is not its creator', async () => {
      const target = address('owner-invitee');
      expectSuccess(await invite(owner, { invitee_emails: target, invite_as: Role.OWNER }));
      // The invitation's own mail goes out after the answer: counted before the snapshot, not after.
      await sink.waitFor(target, 1);
      const row = (await stored()).find((entry) => entry.email === target)!;
      events.clear();
      const before = await snapshot();
      expectError(await call('delete', `/invites/${row.id}`, admin), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      await expectSettled(before);
    });

    it('revokes: the invitation and its link are gone, invites_changed goes out, and a second revoke finds nothing', async () => {
      await expectCallersRefused((options) => system.api.delete(`/invites/${mine.id}`, {}, options), { subdomain: realm.subdomain, member, outsider, deactivated });
      const res = await call('delete', `/invites/${mine.id}`, member);
      expectMatchesOpenApi('delete', '/invites/{invite_id}', expectSuccess(res));
      expect(await system.db.preregistrationUser.findUnique({ where: { id: mine.id } })).toBeNull();
      const [changed] = await events.waitFor<ClientEvent>(INVITES_CHANGED);
      expect(recipientsOf(changed)).toEqual([...adminsAndOwners(), member.id].sort((a, b) => a - b));
      expectError(await call('delete', `/invites/${mine.id}`, member), 400, 'BAD_REQUEST', 'No such invitation');
      const page = await system.api.get<string>(`/accounts/do_confirm/${mine.key}`, {}, { subdomain: realm.subdomain });
      expect(page.status).toBe(404);
      expect(page.body).toContain('Whoops. We couldn&#39;t find your confirmation link in the system.');
    });
  });

  describe('POST /invites/multiuse, DELETE /invites/multiuse/{invite_id}', () => {
    it('makes a reusable link for an administrator (Zulip’s default create_multiuse_invite_group), listed by GET /invites', async () => {
      const res = await call('post', '/invites/multiuse', admin, { invite_as: Role.GUEST, stream_ids: [publicChannel.id], invite_expires_in_minutes: 120 });
      const body = expectSuccess(res) as { invite_link: string };
      expectMatchesOpenApi('post', '/invites/multiuse', body);
      const key = JOIN_LINK.exec(body.invite_link)![1];
      const row = await system.db.multiuseInvite.findUniqueOrThrow({ where: { key } });
      expect(row).toMatchObject({ realmId: realm.id, referredById: admin.id, invitedAs: Role.GUEST, streamIds: [publicChannel.id], groupIds: [], includeRealmDefaultSubscriptions: false, status: 0 });
      const [changed] = await events.waitFor<ClientEvent>(INVITES_CHANGED);
      expect(recipientsOf(changed)).toEqual(adminsAndOwners());

      const listed = (expectSuccess(await call('get', '/invites', owner)) as unknown as { invites: Record<string, unknown>[] }).invites.find(
        (entry) => entry.is_multiuse && entry.id === row.id,
      );
      expect(listed).toEqual({
        id: row.id,
        invited_by_user_id: admin.id,
        invited: Math.floor(row.createdAt.getTime() / 1000),
        expiry_date: Math.floor(row.expiresAt!.getTime() / 1000),
        invited_as: Role.GUEST,
        is_multiuse: true,
        link_url: body.invite_link,
      });
      // Not a member's to see or revoke.
      const memberList = (expectSuccess(await call('get', '/invites', member)) as unknown as { invites: Record<string, unknown>[] }).invites;
      expect(memberList.some((entry) => entry.is_multiuse)).toBe(false);
      expectError(await call('delete', `/invites/multiuse/${row.id}`, member), 400, 'BAD_REQUEST', 'Must be an organization administrator');
    });

    it('refuses members, guests, roles, channels and groups as POST /invites does, changing nothing', async () => {
      const before = await snapshot();
      expectError(await call('post', '/invites/multiuse', member, {}), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await call('post', '/invites/multiuse', guest, {}), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      expectError(await call('post', '/invites/multiuse', admin, { invite_as: Role.OWNER }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await call('post', '/invites/multiuse', admin, { stream_ids: [foreignChannel.id] }), 400, 'BAD_REQUEST', `Invalid channel ID ${foreignChannel.id}. No invites were sent.`);
      expectError(await call('post', '/invites/multiuse', outsider, { group_ids: [team.id] }, otherRealm.subdomain), 400, 'BAD_REQUEST', 'Invalid user group');
      await expectCallersRefused((options) => system.api.post('/invites/multiuse', {}, options), { subdomain: realm.subdomain, member, outsider, deactivated });
      await expectSettled(before);
    });

    it('revokes once ("Invitation has already been revoked" after), never another organization’s; the link then leads nowhere', async () => {
      const body = expectSuccess(await call('post', '/invites/multiuse', owner, {})) as { invite_link: string };
      const key = JOIN_LINK.exec(body.invite_link)![1];
      const row = await system.db.multiuseInvite.findUniqueOrThrow({ where: { key } });
      expect(row.invitedAs).toBe(Role.MEMBER);
      await events.waitFor(INVITES_CHANGED);
      events.clear();

      const before = await snapshot();
      expectError(await call('delete', `/invites/multiuse/${row.id}`, outsider, {}, otherRealm.subdomain), 400, 'BAD_REQUEST', 'No such invitation');
      expectError(await call('delete', '/invites/multiuse/2000000000', admin), 400, 'BAD_REQUEST', 'No such invitation');
      await expectSettled(before);

      const res = await call('delete', `/invites/multiuse/${row.id}`, admin);
      expectMatchesOpenApi('delete', '/invites/multiuse/{invite_id}', expectSuccess(res));
      expect((await system.db.multiuseInvite.findUniqueOrThrow({ where: { id: row.id } })).status).toBe(2);
      const [changed] = await events.waitFor<ClientEvent>(INVITES_CHANGED);
      expect(recipientsOf(changed)).toEqual(adminsAndOwners());
      expectError(await call('delete', `/invites/multiuse/${row.id}`, admin), 400, 'BAD_REQUEST', 'Invitation has already been revoked');
      const page = await system.api.get<string>(`/join/${key}/`, {}, { subdomain: realm.subdomain });
      expect(page.status).toBe(404);
      expect(page.body).toContain('This confirmation link has expired or been deactivated.');
    });
  });

  describe('sign-up', () => {
    it('from an email invitation: the form, the account with its role, channels and groups, the events, the referrer told, and a first login', async () => {
      const target = address('newcomer');
      expectSuccess(
        await invite(admin, {
          invitee_emails: target,
          invite_as: Role.MODERATOR,
          stream_ids: [privateChannel.id, publicChannel.id],
          group_ids: [team.id],
          include_realm_default_subscriptions: true,
        }),
      );
      const { key } = await linkTo(target);
      const { res: page, token } = await openForm(key);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`You are signing up as ${target}.`);
      expect(page.body).toContain('action="/accounts/register/"');
      expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith(`csrftoken=${token};`))).toBe(true);

      // Refused forms: nothing is made, the form is shown again with the reason.
      const before = await accounts();
      const weak = await register(key, token!, 'New Comer', 'password');
      expect(weak.status).toBe(400);
      expect(weak.body).toContain('The password is too weak.');
      expect(weak.body).toContain(`name="key" value="${key}"`);
      expectError(await register(key, token!, '   ', 'k7#Qz!long', { json: true }) as ApiResponse<unknown>, 400, 'BAD_REQUEST', 'Name too short!');
      const noCsrf = await postForm('/accounts/register/', undefined, { key, full_name: 'New Comer', password: 'k7#Qz!long' }, { json: true });
      expectError(noCsrf as ApiResponse<unknown>, 403, 'BAD_REQUEST', 'CSRF error: CSRF token missing.');
      const wrongCsrf = await postForm('/accounts/register/', token, { key, full_name: 'New Comer', password: 'k7#Qz!long' }, { json: true, cookie: 'x'.repeat(43) });
      expectError(wrongCsrf as ApiResponse<unknown>, 403, 'BAD_REQUEST', 'CSRF error: CSRF token incorrect.');
      // Another organization's host does not know the key.
      const { res: elsewhere } = await openForm(key, otherRealm.subdomain);
      expect(elsewhere.status).toBe(404);
      expect(await accounts()).toBe(before);
      events.clear();

      const done = await register(key, token!, 'New Comer', 'k7#Qz!long');
      expect(done.status).toBe(200);
      expect(done.body).toContain(`Your account ${target} is ready.`);
      const user = await system.db.user.findFirstOrThrow({ where: { realmId: realm.id, deliveryEmail: target } });
      expect(user).toMatchObject({ fullName: 'New Comer', role: Role.MODERATOR, isActive: true, isBot: false });
      expect(await accounts()).toBe(before + 1);

      const prereg = await system.db.preregistrationUser.findUniqueOrThrow({ where: { key } });
      expect(prereg).toMatchObject({ status: 1, createdUserId: user.id });

      // Channels: the invitation's (a private one included) and the default ones; through the subscription path.
      const channels = await system.db.subscription.findMany({ where: { userId: user.id, active: true }, select: { streamId: true } });
      expect(channels.map((s) => s.streamId).sort((a, b) => a - b)).toEqual([publicChannel.id, privateChannel.id, defaultChannel.id].sort((a, b) => a - b));
      const subscriptionAdds = (await events.waitFor<ClientEvent>(SUBSCRIPTION)).filter((e) => e.event.op === 'add');
      expect(subscriptionAdds.some((e) => e.users.includes(user.id))).toBe(true);
      // Groups: the invitation's, directly.
      expect(await system.db.userGroupMember.findMany({ where: { userId: user.id, groupId: team.id } })).toHaveLength(1);

      await events.waitFor(REALM_USER);
      const added = await events.settle<ClientEvent>(REALM_USER);
      const person = added.find((e) => e.event.op === 'add' && e.users.includes(member.id))!;
      expect(person.event).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: user.id, full_name: 'New Comer', role: Role.MODERATOR } });
      // Everyone active when the account was made (the notification bot comes later, on its first use).
      const everyone = (await system.db.user.findMany({ where: { realmId: realm.id, isActive: true, id: { lte: user.id } }, select: { id: true } })).map((u) => u.id).sort((a, b) => a - b);
      expect(added.filter((e) => e.event.op === 'add').flatMap((e) => e.users).sort((a, b) => a - b)).toEqual(everyone);
      const groupAdds = await events.waitFor<ClientEvent>(USER_GROUP, 2);
      expect(groupAdds.some((e) => e.event.op === 'add_members' && e.event.group_id === team.id && JSON.stringify(e.event.user_ids) === `[${user.id}]`)).toBe(true);

      // The referrer asked to be told (the default): a direct message from the notification bot.
      // Two messages: the referrer's notice, and Welcome Bot's to the new account.
      const sent = await events.waitFor<{ message: { content: string; raw_content?: string; sender_email: string }; recipients: { id: number }[] }>(MESSAGE_SENT, 2);
      const notice = sent.find((e) => e.recipients.some((r) => r.id === admin.id))!;
      expect(notice.message.raw_content ?? notice.message.content).toContain(`@_**New Comer|${user.id}** accepted your invitation to join Zulip!`);
      expect(notice.message.sender_email).toMatch(/^notification-bot@/);
      // The new account's first message, from Welcome Bot (process_new_human_user).
      const welcomed = sent.find((e) => e.message.sender_email.startsWith('welcome-bot@'));
      expect(welcomed?.recipients.map((r) => r.id)).toContain(user.id);
      expect(welcomed?.message.raw_content ?? welcomed?.message.content).toContain('Hello, and welcome to Zulip!');
      const [changed] = await events.waitFor<ClientEvent>(INVITES_CHANGED);
      expect(recipientsOf(changed)).toEqual(adminsAndOwners());

      // The link is used up; the first login works with the new password.
      const again = await openForm(key);
      expect(again.res.status).toBe(404);
      expect(again.res.body).toContain('This confirmation link has expired or been deactivated.');
      const login = expectSuccess(await fetchApiKey(target, 'k7#Qz!long'));
      expect(login).toMatchObject({ email: target, user_id: user.id });
      const me = expectSuccess(await system.api.get('/users/me', {}, { auth: { email: target, apiKey: String(login.api_key) }, subdomain: realm.subdomain }));
      expect(me).toMatchObject({ user_id: user.id, role: Role.MODERATOR });
      expect((expectSuccess(await call('get', '/invites', admin)) as unknown as { invites: { id: number }[] }).invites.some((i) => i.id === prereg.id)).toBe(false);
    });

    it('tells nobody when the inviter opted out, and joins no default channel unless asked', async () => {
      const target = address('quiet');
      expectSuccess(await invite(member, { invitee_emails: target, stream_ids: [publicChannel.id], notify_referrer_on_join: false }));
      const { key } = await linkTo(target);
      const { token } = await openForm(key);
      events.clear();
      const done = await register(key, token!, 'Quiet One', 'k7#Qz!long', { json: true });
      const body = expectSuccess(done as ApiResponse<Record<string, unknown>>);
      const user = await system.db.user.findFirstOrThrow({ where: { deliveryEmail: target } });
      expect(body).toMatchObject({ user_id: user.id, email: target });
      expect(user.role).toBe(Role.MEMBER);
      const channels = await system.db.subscription.findMany({ where: { userId: user.id, active: true }, select: { streamId: true } });
      expect(channels.map((s) => s.streamId)).toEqual([publicChannel.id]);
      await events.waitFor(INVITES_CHANGED);
      // Only Welcome Bot writes, to the new account (its first message); the inviter hears nothing.
      await events.waitFor(MESSAGE_SENT);
      const sent = await events.settle<{ message: { sender_email: string }; recipients: { id: number }[] }>(MESSAGE_SENT);
      expect(sent.map((e) => e.message.sender_email)).toEqual([expect.stringMatching(/^welcome-bot@/)]);
      expect(sent[0].recipients.map((r) => r.id)).toContain(user.id);
      expect(sent[0].recipients.map((r) => r.id)).not.toContain(member.id);
    });

    it("has Welcome Bot send the invitation's custom text (\"\" none; without one, the organization's); only administrators may give one", async () => {
      await system.db.realm.update({ where: { id: realm.id }, data: { welcomeMessageCustomText: 'The house rules.' } });
      /** What Welcome Bot sent the account made from an invitation with this form (once `count` arrived, and a moment more). */
      const welcomeOf = async (inviter: TestUser, form: Record<string, unknown>, count: number) => {
        const target = address('greeted');
        expectSuccess(await invite(inviter, { invitee_emails: target, notify_referrer_on_join: false, ...form }));
        const { key } = await linkTo(target);
        const { token } = await openForm(key);
        events.clear();
        expect((await register(key, token!, 'Greeted One', 'k7#Qz!long')).status).toBe(200);
        await events.waitFor(MESSAGE_SENT, count);
        const sent = await events.settle<{ message: { content: string; raw_content?: string; sender_email: string } }>(MESSAGE_SENT);
        expect(sent.every((e) => e.message.sender_email.startsWith('welcome-bot@'))).toBe(true);
        return sent.map((e) => e.message.raw_content ?? e.message.content);
      };
      try {
        const own = await welcomeOf(admin, { welcome_message_custom_text: 'Welcome, from the invitation.' }, 2);
        expect(own[1]).toBe('A message from the administrators of Invites Org:\n\nWelcome, from the invitation.');
        const members = await welcomeOf(member, {}, 2);
        expect(members[1]).toBe('A message from the administrators of Invites Org:\n\nThe house rules.');
        // A member may not give one (Zulip: after the channels and groups): nothing is made.
        const before = await snapshot();
        const refused = await invite(member, { invitee_emails: address('unsaid'), welcome_message_custom_text: 'Not for members to say.' });
        expectError(refused, 400, 'BAD_REQUEST', 'Must be an organization administrator');
        expectError(await invite(member, { invitee_emails: address('unsaid'), stream_ids: [999_999], welcome_message_custom_text: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID 999999. No invites were sent.');
        expect(await snapshot()).toEqual(before);
        const none = await welcomeOf(admin, { welcome_message_custom_text: '' }, 1);
        expect(none).toHaveLength(1);
        expect(none[0]).toContain('Hello, and welcome to Zulip!');
      } finally {
        await system.db.realm.update({ where: { id: realm.id }, data: { welcomeMessageCustomText: '' } });
      }
    });

    it('refuses an expired invitation and an address that got an account meanwhile, making nothing', async () => {
      const target = address('late');
      expectSuccess(await invite(admin, { invitee_emails: target }));
      const { key } = await linkTo(target);
      const { token } = await openForm(key);
      await system.db.preregistrationUser.update({ where: { key }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const before = await accounts();
      expectError(await register(key, token!, 'Too Late', 'k7#Qz!long', { json: true }) as ApiResponse<unknown>, 404, 'NOT_FOUND', 'This confirmation link has expired or been deactivated.');

      const taken = address('taken');
      expectSuccess(await invite(admin, { invitee_emails: taken }));
      const second = await linkTo(taken);
      await factory.user(realm, { email: taken });
      expectError(await register(second.key, token!, 'Taken', 'k7#Qz!long', { json: true }) as ApiResponse<unknown>, 400, 'BAD_REQUEST', 'Already has an account.');
      expectError(await register('not-a-key', token!, 'Bad', 'k7#Qz!long', { json: true }) as ApiResponse<unknown>, 404, 'NOT_FOUND', 'This confirmation link is malformed. Make sure you copied the whole link.');
      expect(await accounts()).toBe(before + 1);
    });

    it('from a reusable link: an address form, a confirmation mail, then the same registration with the link’s role and channels', async () => {
      const body = expectSuccess(await call('post', '/invites/multiuse', admin, { invite_as: Role.GUEST, stream_ids: [publicChannel.id], group_ids: [team.id] })) as { invite_link: string };
      const joinKey = JOIN_LINK.exec(body.invite_link)![1];
      const page = await system.api.get<string>(`/join/${joinKey}/`, {}, { subdomain: realm.subdomain });
      expect(page.status).toBe(200);
      expect(page.body).toContain(`action="/join/${joinKey}/"`);
      const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.body)![1];

      const before = await snapshot();
      expectError(await postForm(`/join/${joinKey}/`, token, { email: 'nope' }, { json: true }) as ApiResponse<unknown>, 400, 'BAD_REQUEST', 'Invalid address.');
      expectError(await postForm(`/join/${joinKey}/`, token, { email: member.email }, { json: true }) as ApiResponse<unknown>, 400, 'BAD_REQUEST', 'Already has an account.');
      expectError(await postForm(`/join/${joinKey}/`, undefined, { email: address('csrf') }, { json: true }) as ApiResponse<unknown>, 403, 'BAD_REQUEST', 'CSRF error: CSRF token missing.');
      expect(await snapshot()).toEqual(before);

      const target = address('joiner');
      const asked = await postForm(`/join/${joinKey}/`, token, { email: target });
      expect(asked.status).toBe(200);
      expect(asked.body).toContain('Check your email');
      const { key, mail } = await linkTo(target);
      expect(mail.subject).toBe('Activate your Zulip account');
      const prereg = await system.db.preregistrationUser.findUniqueOrThrow({ where: { key } });
      expect(prereg).toMatchObject({ email: target, referredById: null, invitedAs: Role.GUEST, streamIds: [publicChannel.id], groupIds: [team.id] });
      // A sign-up confirmation is not an invitation: GET /invites does not list it.
      expect((expectSuccess(await call('get', '/invites', admin)) as unknown as { invites: { email?: string }[] }).invites.some((i) => i.email === target)).toBe(false);

      const form = await openForm(key);
      expect(form.res.body).toContain(`You are signing up as ${target}.`);
      expect((await register(key, form.token!, 'Joining Guest', 'k7#Qz!long')).status).toBe(200);
      const user = await system.db.user.findFirstOrThrow({ where: { realmId: realm.id, deliveryEmail: target } });
      expect(user.role).toBe(Role.GUEST);
      const channels = await system.db.subscription.findMany({ where: { userId: user.id, active: true }, select: { streamId: true } });
      expect(channels.map((s) => s.streamId)).toEqual([publicChannel.id]);
      expect(await system.db.userGroupMember.count({ where: { userId: user.id, groupId: team.id } })).toBe(1);
      expect(expectSuccess(await fetchApiKey(target, 'k7#Qz!long'))).toMatchObject({ user_id: user.id });
      // The link stays usable for others.
      expect((await system.api.get<string>(`/join/${joinKey}/`, {}, { subdomain: realm.subdomain })).status).toBe(200);
    });

    it('refuses open sign-up while the organization requires invitations (Zulip’s default), and unknown links', async () => {
      const page = await system.api.get<string>('/accounts/register/', {}, { subdomain: realm.subdomain });
      expect(page.status).toBe(403);
      expect(page.body).toContain('Sign up for this organization requires an invitation.');
      const token = 'a'.repeat(43);
      const before = await snapshot();
      expectError(await postForm('/accounts/register/', token, { email: address('open') }, { json: true }) as ApiResponse<unknown>, 403, 'BAD_REQUEST',
        'Sign up for this organization requires an invitation.');
      expect((await system.api.get<string>('/join/abcdefghijklmnopqrstuvwx/', {}, { subdomain: realm.subdomain })).status).toBe(404);
      expect((await system.api.get<string>('/join/short/', {}, { subdomain: realm.subdomain })).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  });
});

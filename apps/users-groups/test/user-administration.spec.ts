import { createHash } from 'node:crypto';
import type { ClientEvent } from '@teamchat/contracts';
import type { RealmModel } from '@teamchat/db';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type ApiResponse,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { Redis } from 'ioredis';

const REALM_USER = 'event.users-groups.realm_user_changed.v1';
const USER_GROUP = 'event.users-groups.user_group_changed.v1';
const ACCESS = 'event.users-groups.user_access_changed.v1';

interface UserRecord {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  avatar_url: string | null;
  is_active: boolean;
  role: number;
  is_bot: boolean;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  [key: string]: unknown;
}

const gravatar = (email: string, version = 1) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=${version}`;

/**
 * User administration through HTTP: reading one user, PATCH /users/{user_id|email},
 * deactivation and reactivation. The gateways here remember credentials for 30 s, so every
 * immediate effect on a caller's key or role is the revocation at work, not the cache expiring.
 */
describe('user administration', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let redis: Redis;
  let realm: RealmModel;
  const subdomain = 'admin-org';
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser;
  let deactivated: TestUser, bot: TestUser, outsider: TestUser;
  let hidden: TestUser; // email visible to administrators only

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const path = (target: { id: number } | number | string) =>
    `/users/${encodeURIComponent(typeof target === 'object' ? String(target.id) : String(target))}`;
  const getUser = (caller: TestUser, target: { id: number } | number | string, query: Record<string, FormValue> = {}) =>
    system.api.get<{ user: UserRecord }>(path(target), query, as(caller));
  const patchUser = (caller: TestUser, target: { id: number } | number | string, form: Record<string, FormValue>) =>
    system.api.patch(path(target), form, as(caller));
  const deactivate = (caller: TestUser, target: { id: number } | number) => system.api.delete(path(target), {}, as(caller));
  const reactivate = (caller: TestUser, target: { id: number } | number) => system.api.post(`${path(target)}/reactivate`, {}, as(caller));
  const row = (user: { id: number }) => system.db.user.findUniqueOrThrow({ where: { id: user.id } });
  const groupId = (name: string) => factory.systemGroupId(realm, name);
  const fresh = (input: Parameters<Factory['user']>[1] = {}) => factory.user(realm, input);
  const adminRequired = (res: ApiResponse<unknown>) =>
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  const ownerRequired = (res: ApiResponse<unknown>) => expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  const noSuchUser = (res: ApiResponse<unknown>) => expectError(res, 400, 'BAD_REQUEST', 'No such user');
  /** The organization's active users now: who every event here goes to. */
  const activeIds = async () =>
    (await system.db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);

  beforeAll(async () => {
    system = await TestSystem.start({ gateways: 2, env: { AUTH_CACHE_TTL_SECONDS: '30' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain });
    ({ realm, owner, admin, member, guest } = org);
    moderator = await fresh({ role: Role.MODERATOR, fullName: 'Mo Moderator' });
    deactivated = await fresh({ isActive: false, fullName: 'Dee Activated' });
    bot = await fresh({ isBot: true, botOwnerId: member.id, fullName: 'Helper Bot' });
    hidden = await fresh({ fullName: 'Hidden Hal', settings: { email_address_visibility: 3 } });
    outsider = await factory.user(await factory.organization({ subdomain: 'admin-elsewhere' }), { role: Role.OWNER });
    events = await system.recordEvents();
    redis = new Redis(system.env.REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await system?.stop();
  });

  describe('GET /users/{user_id}', () => {
    it('answers the record GET /users lists for that user', async () => {
      const body = expectSuccess(await getUser(member, admin));
      expectMatchesOpenApi('get', '/users/{user_id}', body);
      const listed = expectSuccess(await system.api.get<{ members: UserRecord[] }>('/users', {}, as(member))).members;
      expect(body.user).toEqual(listed.find((m) => m.user_id === admin.id));
      expect(body.user).toMatchObject({ user_id: admin.id, full_name: 'Adam Admin', role: Role.ADMINISTRATOR, is_admin: true, avatar_url: null });
    });

    it('honours client_gravatar and include_custom_profile_fields', async () => {
      const field = await system.db.customProfileField.create({ data: { realmId: realm.id, name: `Team ${Date.now()}`, fieldType: 1 } });
      await system.db.customProfileFieldValue.create({ data: { userId: guest.id, fieldId: field.id, value: 'Ops', renderedValue: '<p>Ops</p>' } });
      const body = expectSuccess(await getUser(member, guest, { client_gravatar: false, include_custom_profile_fields: true }));
      expectMatchesOpenApi('get', '/users/{user_id}', body);
      expect(body.user.avatar_url).toBe(gravatar(guest.email));
      expect(body.user.profile_data).toEqual({ [String(field.id)]: { value: 'Ops', rendered_value: '<p>Ops</p>' } });
      expect(expectSuccess(await getUser(member, guest)).user).not.toHaveProperty('profile_data');
    });

    it('finds deactivated users and bots too', async () => {
      expect(expectSuccess(await getUser(guest, deactivated)).user).toMatchObject({ user_id: deactivated.id, is_active: false });
      expect(expectSuccess(await getUser(guest, bot)).user).toMatchObject({ user_id: bot.id, is_bot: true, bot_owner_id: member.id });
    });

    it('knows no user of another organization, and no unknown id', async () => {
      noSuchUser(await getUser(member, outsider));
      noSuchUser(await getUser(member, 99999999));
      noSuchUser(await getUser(member, 2 ** 40));
    });

    it('refuses callers who are not logged in to the organization', async () => {
      await expectCallersRefused((options) => system.api.get(path(admin), {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('GET /users/{email}', () => {
    it('finds a user by real address, whatever its case, when the caller may see it', async () => {
      const body = expectSuccess(await getUser(member, admin.email.toUpperCase()));
      expectMatchesOpenApi('get', '/users/{email}', body);
      expect(body.user).toEqual(expectSuccess(await getUser(member, admin)).user);
    });

    it('finds anyone by the dummy address, and a hidden address only for those allowed to see it', async () => {
      const dummy = expectSuccess(await getUser(member, hidden)).user.email;
      expect(dummy).toBe(`user${hidden.id}@${subdomain}.testserver.local`);
      expect(expectSuccess(await getUser(member, dummy)).user.user_id).toBe(hidden.id);
      noSuchUser(await getUser(member, hidden.email));
      expect(expectSuccess(await getUser(admin, hidden.email)).user).toMatchObject({ user_id: hidden.id, delivery_email: hidden.email });
    });

    it('knows no unknown address, nor another organization’s', async () => {
      noSuchUser(await getUser(member, 'nobody@example.test'));
      noSuchUser(await getUser(member, outsider.email));
      noSuchUser(await getUser(member, `user${outsider.id}@${subdomain}.testserver.local`));
      noSuchUser(await getUser(member, 'not-an-address'));
    });

    it('refuses callers who are not logged in to the organization', async () => {
      await expectCallersRefused((options) => system.api.get(path(admin.email), {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('GET /users/me', () => {
    it("answers the caller's own record with its custom profile fields and max_message_id", async () => {
      const body = expectSuccess(await system.api.get<UserRecord & { max_message_id: number }>('/users/me', {}, as(guest)));
      expectMatchesOpenApi('get', '/users/me', body);
      expect(body).toMatchObject({
        user_id: guest.id,
        delivery_email: guest.email,
        full_name: 'Gus Guest',
        role: Role.GUEST,
        is_guest: true,
        avatar_url: gravatar(guest.email),
        max_message_id: -1,
      });
      expect(Object.values(body.profile_data ?? {})).toEqual([{ value: 'Ops', rendered_value: '<p>Ops</p>' }]);
      expect(body).not.toHaveProperty('bot_type');
    });

    it('is a route of its own: /users/me is nobody’s id or address', async () => {
      expectError(await system.api.post('/users/me', {}, as(admin)), 404, 'NOT_FOUND', 'Not Found');
      await expectCallersRefused((options) => system.api.get('/users/me', {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH /users/{user_id}', () => {
    it('changes the full name and tells the organization', async () => {
      const target = await fresh({ fullName: 'Old Name' });
      events.clear();
      const body = expectSuccess(await patchUser(admin, target, { full_name: '  New Name  ' }));
      expectMatchesOpenApi('patch', '/users/{user_id}', body);
      expect((await row(target)).fullName).toBe('New Name');
      const [published] = await events.waitFor<ClientEvent>(REALM_USER);
      expect(published.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: 'New Name' } });
      expect(published.users).toEqual(await activeIds());
      expect(published.users).not.toContain(deactivated.id);
      expect(published.users).not.toContain(outsider.id);
    });

    it('takes a blank or unchanged name as no change', async () => {
      const target = await fresh({ fullName: 'Same Name' });
      events.clear();
      expectSuccess(await patchUser(admin, target, { full_name: '   ' }));
      expectSuccess(await patchUser(admin, target, { full_name: 'Same Name' }));
      expect((await row(target)).fullName).toBe('Same Name');
      expect(await events.publishedByNow(REALM_USER)).toEqual([]);
    });

    it('changes a role, moving the user between system groups, and announces both', async () => {
      const target = await fresh();
      events.clear();
      expectSuccess(await patchUser(admin, target, { role: Role.MODERATOR }));
      expect((await row(target)).role).toBe(Role.MODERATOR);
      const [roleEvent] = await events.waitFor<ClientEvent>(REALM_USER);
      expect(roleEvent.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: target.id, role: Role.MODERATOR } });
      const groupEvents = await events.waitFor<ClientEvent>(USER_GROUP, 3);
      const left = (await Promise.all(['role:members', 'role:fullmembers'].map(groupId))).sort((a, b) => a - b);
      const moderators = await groupId('role:moderators');
      expect(groupEvents.map((e) => e.event)).toEqual([
        ...left.map((id) => ({ type: 'user_group', op: 'remove_members', group_id: id, user_ids: [target.id] })),
        { type: 'user_group', op: 'add_members', group_id: moderators, user_ids: [target.id] },
      ]);
      const everyone = await activeIds();
      expect(groupEvents.every((e) => JSON.stringify(e.users) === JSON.stringify(everyone))).toBe(true);
      expect((await events.settle(ACCESS)).map((e) => e.userId)).toEqual([target.id]);
    });

    it("delivers the role change to the organization's event queues", async () => {
      const target = await fresh({ role: Role.GUEST });
      const queue = await EventQueueClient.register(system.api, as(owner), { event_types: ['realm_user', 'user_group'] });
      expectSuccess(await patchUser(admin, target, { role: Role.MEMBER }));
      await queue.waitFor('user_group', 3);
      const received = await queue.settle(200);
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: received });
      const [everyone, members, fullMembers] = await Promise.all(['role:everyone', 'role:members', 'role:fullmembers'].map(groupId));
      expect(received.map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: target.id, role: Role.MEMBER } },
        { type: 'user_group', op: 'remove_members', group_id: everyone, user_ids: [target.id] },
        { type: 'user_group', op: 'add_members', group_id: fullMembers < members ? fullMembers : members, user_ids: [target.id] },
        { type: 'user_group', op: 'add_members', group_id: fullMembers < members ? members : fullMembers, user_ids: [target.id] },
      ]);
    });

    it('takes effect on the changed user’s own permissions at once', async () => {
      const promoted = await fresh();
      // Both gateways remember the member's credentials (for 30 s).
      adminRequired(await patchUser(promoted, member, { full_name: 'Mia Member' }));
      adminRequired(await system.apiVia(1).patch(path(member), { full_name: 'Mia Member' }, as(promoted)));
      expectSuccess(await patchUser(admin, promoted, { role: Role.ADMINISTRATOR }));
      expectSuccess(await system.apiVia(1).patch(path(member), { full_name: 'Mia Member' }, as(promoted)));
      expectSuccess(await patchUser(admin, promoted, { role: Role.MEMBER }));
      adminRequired(await patchUser(promoted, member, { full_name: 'Mia Member' }));
      adminRequired(await system.apiVia(1).patch(path(member), { full_name: 'Mia Member' }, as(promoted)));
    });

    it('refuses role values Zulip does not have', async () => {
      const target = await fresh();
      expectError(await patchUser(admin, target, { role: 500 }), 400, 'BAD_REQUEST', 'Invalid role');
      expectError(await patchUser(admin, target, { role: 'admin' }), 400, 'BAD_REQUEST', 'role is not valid JSON');
      expectError(await patchUser(admin, target, { role: '"200"' }), 400, 'BAD_REQUEST', 'role is not an integer');
      expect((await row(target)).role).toBe(Role.MEMBER);
    });

    it('lets only owners make or unmake owners', async () => {
      const target = await fresh();
      const before = await row(target);
      ownerRequired(await patchUser(admin, target, { role: Role.OWNER }));
      ownerRequired(await patchUser(admin, owner, { role: Role.MEMBER }));
      expect(await row(target)).toEqual(before);
      expect((await row(owner)).role).toBe(Role.OWNER);
    });

    it('changes bots and deactivated users too', async () => {
      const sleeper = await fresh({ isActive: false, fullName: 'Sleeper' });
      expectSuccess(await patchUser(admin, sleeper, { full_name: 'Still Asleep', role: Role.GUEST }));
      expect(await row(sleeper)).toMatchObject({ fullName: 'Still Asleep', role: Role.GUEST, isActive: false });
      const helper = await fresh({ isBot: true, botOwnerId: member.id });
      expectSuccess(await patchUser(admin, helper, { full_name: 'Renamed Bot' }));
      expect((await row(helper)).fullName).toBe('Renamed Bot');
    });

    it.each([
      [{ full_name: 'x'.repeat(101) }, 'Name too long!'],
      [{ full_name: 'Bad @name' }, 'Invalid characters in name!'],
      [{ full_name: 'Mallory|12' }, 'Invalid format!'],
      [{ full_name: 'nul\u0000' }, 'full_name must not contain null bytes'],
      [{ role: 700 }, 'Invalid role'],
      [{ profile_data: '{"id": 1}' }, 'profile_data is not a list'],
      [{ profile_data: [{ id: 'a', value: 'x' }] }, 'profile_data[0]["id"] is not an integer'],
      [{ profile_data: [{ id: 1, value: 'x', extra: 1 }] }, 'Argument "extra" at profile_data[0] is unexpected'],
      [{ profile_data: [{ id: 99999999, value: 'x' }] }, 'Field id 99999999 not found.'],
      [{ profile_data: [{ id: 99999999, value: '' }] }, 'Field id 99999999 not found.'],
    ])('refuses %j and changes nothing', async (form, msg) => {
      const target = await fresh({ fullName: 'Unchanged' });
      const before = await row(target);
      expectError(await patchUser(admin, target, { ...form, ...('full_name' in form ? {} : { full_name: 'Changed' }) }), 400, 'BAD_REQUEST', msg);
      expect(await row(target)).toEqual(before);
    });

    it('knows no user of another organization, and no unknown id', async () => {
      noSuchUser(await patchUser(admin, outsider, { full_name: 'Hijacked' }));
      noSuchUser(await patchUser(admin, 99999999, { full_name: 'Nobody' }));
      expect((await row(outsider)).fullName).toBe('Test User');
    });

    it('is for administrators: members, moderators and guests are refused before anything is looked up', async () => {
      const target = await fresh({ fullName: 'Kept' });
      for (const caller of [member, moderator, guest]) {
        adminRequired(await patchUser(caller, target, { full_name: 'Taken Over' }));
        adminRequired(await patchUser(caller, 99999999, { full_name: 'Taken Over' }));
      }
      expectSuccess(await patchUser(owner, target, { full_name: 'By The Owner' }));
      expect((await row(target)).fullName).toBe('By The Owner');
      await expectCallersRefused((options) => system.api.patch(path(target), { full_name: 'x' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect((await row(target)).fullName).toBe('By The Owner');
    });
  });

  describe('PATCH /users/{email}', () => {
    it('finds the user by real or dummy address as GET /users/{email} does', async () => {
      const target = await fresh({ fullName: 'By Mail', settings: { email_address_visibility: 3 } });
      const body = expectSuccess(await patchUser(admin, target.email, { full_name: 'By Real Mail' }));
      expectMatchesOpenApi('patch', '/users/{email}', body);
      expect((await row(target)).fullName).toBe('By Real Mail');
      expectSuccess(await patchUser(admin, `user${target.id}@${subdomain}.testserver.local`, { role: Role.GUEST }));
      expect((await row(target)).role).toBe(Role.GUEST);
      noSuchUser(await patchUser(admin, 'nobody@example.test', { full_name: 'x' }));
      noSuchUser(await patchUser(admin, outsider.email, { full_name: 'x' }));
      adminRequired(await patchUser(member, target.email, { full_name: 'x' }));
      expect((await row(target)).fullName).toBe('By Real Mail');
    });

    it('takes a non-numeric segment as an address (PATCH /users/12abc names nobody)', async () => {
      noSuchUser(await patchUser(admin, '12abc', { full_name: 'x' }));
    });
  });

  describe('custom profile fields (profile_data)', () => {
    const fields: Record<string, number> = {};

    beforeAll(async () => {
      const make = async (name: string, fieldType: number, fieldData = '') =>
        (fields[name] = (await system.db.customProfileField.create({ data: { realmId: realm.id, name, fieldType, fieldData } })).id);
      await make('Phone', 1);
      await make('Bio', 2);
      await make('Editor', 3, JSON.stringify({ vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } }));
      await make('Birthday', 4);
      await make('Website', 5);
      await make('Mentor', 6);
      await make('GitHub', 7, JSON.stringify({ subtype: 'github' }));
      await make('Pronouns', 8);
    });

    it('sets values of every type, renders the text ones, and announces each change', async () => {
      const target = await fresh();
      events.clear();
      const profile = [
        { id: fields.Phone, value: '+1 234' },
        { id: fields.Bio, value: 'I like **bold** text' },
        { id: fields.Editor, value: 'vim' },
        { id: fields.Birthday, value: '2000-02-29' },
        { id: fields.Website, value: 'https://example.com/me' },
        { id: fields.Mentor, value: [admin.id, owner.id] },
        { id: fields.GitHub, value: 'octocat' },
        { id: fields.Pronouns, value: 'they/them' },
      ];
      expectSuccess(await patchUser(admin, target, { profile_data: profile }));
      const shown = expectSuccess(await getUser(member, target, { include_custom_profile_fields: true })).user.profile_data;
      expect(shown).toEqual({
        [fields.Phone]: { value: '+1 234', rendered_value: '<p>+1 234</p>' },
        [fields.Bio]: { value: 'I like **bold** text', rendered_value: '<p>I like <strong>bold</strong> text</p>' },
        [fields.Editor]: { value: 'vim' },
        [fields.Birthday]: { value: '2000-02-29' },
        [fields.Website]: { value: 'https://example.com/me' },
        [fields.Mentor]: { value: JSON.stringify([admin.id, owner.id]) },
        [fields.GitHub]: { value: 'octocat' },
        [fields.Pronouns]: { value: 'they/them' },
      });
      const published = await events.waitFor<ClientEvent>(REALM_USER, 8);
      expect(published.map((e) => e.event)).toEqual(
        profile.map(({ id }) => ({
          type: 'realm_user',
          op: 'update',
          person: { user_id: target.id, custom_profile_field: { id, ...shown![String(id)] } },
        })),
      );
      expect(published[0].users).toEqual(await activeIds());

      // The same values again change nothing and announce nothing.
      events.clear();
      expectSuccess(await patchUser(admin, target, { profile_data: profile }));
      expect(await events.publishedByNow(REALM_USER)).toEqual([]);
    });

    it('clears a value with an empty one, announcing null, and ignores clearing an unset field', async () => {
      const target = await fresh();
      events.clear();
      expectSuccess(await patchUser(admin, target, { profile_data: [{ id: fields.Phone, value: '123' }, { id: fields.Mentor, value: [admin.id] }] }));
      // Those two changes' announcements may arrive after the answer: let them, then start afresh.
      await events.waitFor(REALM_USER, 2);
      await events.settle(REALM_USER);
      events.clear();
      expectSuccess(
        await patchUser(admin, target, {
          profile_data: [
            { id: fields.Phone, value: '' },
            { id: fields.Mentor, value: [] },
            { id: fields.Bio, value: null },
          ],
        }),
      );
      expect(await system.db.customProfileFieldValue.count({ where: { userId: target.id } })).toBe(0);
      const published = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(published.map((e) => e.event.person)).toEqual([
        { user_id: target.id, custom_profile_field: { id: fields.Phone, value: null } },
        { user_id: target.id, custom_profile_field: { id: fields.Mentor, value: null } },
      ]);
      expect(await events.settle(REALM_USER)).toHaveLength(2);
    });

    it.each([
      ['Phone', 'x'.repeat(51), 'Phone is too long (limit: 50 characters)'],
      ['Phone', [1], 'Phone is not a string'],
      ['Bio', 'x'.repeat(501), 'Bio is too long (limit: 500 characters)'],
      ['Editor', 'nano', "'nano' is not a valid choice for 'Editor'."],
      ['Birthday', '2001-02-29', 'Birthday is not a date'],
      ['Birthday', '29/02/2000', 'Birthday is not a date'],
      ['Website', 'not a link', 'Website is not a URL'],
      ['Website', 'javascript:alert(1)', 'Website is not a URL'],
      ['Mentor', 'x', 'User IDs is not a list'],
      ['Mentor', [99999999], 'Invalid user ID: 99999999'],
      ['GitHub', 'y'.repeat(51), 'GitHub is too long (limit: 50 characters)'],
    ])('refuses %s = %j (%s) and changes nothing', async (name, value, msg) => {
      const target = await fresh({ fullName: 'Unchanged' });
      expectSuccess(await patchUser(admin, target, { profile_data: [{ id: fields.Pronouns, value: 'she/her' }] }));
      const [before, values] = [await row(target), await system.db.customProfileFieldValue.findMany({ where: { userId: target.id } })];
      // Valid changes ride along: the whole request is refused.
      const res = await patchUser(admin, target, {
        full_name: 'Changed',
        profile_data: [{ id: fields.Pronouns, value: '' }, { id: fields[name], value } as { id: number; value: FormValue }],
      });
      expectError(res, 400, 'BAD_REQUEST', msg);
      expect(await row(target)).toEqual(before);
      expect(await system.db.customProfileFieldValue.findMany({ where: { userId: target.id } })).toEqual(values);
    });

    it('refuses deactivated users, bots and other organizations’ users as a Users value', async () => {
      const target = await fresh();
      const users = (value: number[]) => patchUser(admin, target, { profile_data: [{ id: fields.Mentor, value }] });
      expectError(await users([deactivated.id]), 400, 'BAD_REQUEST', `User with ID ${deactivated.id} is deactivated`);
      expectError(await users([bot.id]), 400, 'BAD_REQUEST', `User with ID ${bot.id} is a bot`);
      expectError(await users([outsider.id]), 400, 'BAD_REQUEST', `Invalid user ID: ${outsider.id}`);
      expect(await system.db.customProfileFieldValue.count({ where: { userId: target.id } })).toBe(0);
    });
  });

  describe('new_email', () => {
    let boss: TestUser; // an owner holding can_change_user_emails

    beforeAll(async () => {
      boss = await fresh({ role: Role.OWNER, fullName: 'Boss' });
      await system.db.user.update({ where: { id: boss.id }, data: { canChangeUserEmails: true } });
    });

    it('is refused to administrators, and to owners without can_change_user_emails', async () => {
      const target = await fresh();
      for (const caller of [admin, owner]) {
        expectError(await patchUser(caller, target, { new_email: 'elsewhere@example.test' }), 400, 'BAD_REQUEST', 'User not authorized to change user emails');
      }
      const adminWithPermission = await fresh({ role: Role.ADMINISTRATOR });
      await system.db.user.update({ where: { id: adminWithPermission.id }, data: { canChangeUserEmails: true } });
      expectError(
        await patchUser(adminWithPermission, target, { new_email: 'elsewhere@example.test' }),
        400,
        'BAD_REQUEST',
        'User not authorized to change user emails',
      );
      expect((await row(target)).deliveryEmail).toBe(target.email);
    });

    it('changes the address: announced, and the old address stops working with the key at once', async () => {
      const target = await fresh();
      // Remembered by both gateways under the old address.
      expectSuccess(await system.api.get('/users/me', {}, as(target)));
      expectSuccess(await system.apiVia(1).get('/users/me', {}, as(target)));
      events.clear();
      const address = `moved-${target.id}@example.test`;
      expectSuccess(await patchUser(boss, target, { new_email: address }));
      expect((await row(target)).deliveryEmail).toBe(address);

      const published = await events.waitFor<ClientEvent>(REALM_USER, 3);
      const everyone = await activeIds();
      expect(published.map((e) => [e.event.person, e.users])).toEqual([
        [{ user_id: target.id, delivery_email: address }, everyone],
        [
          {
            user_id: target.id,
            avatar_source: 'G',
            avatar_url: gravatar(address),
            avatar_url_medium: gravatar(address).replace('?d=identicon&', '?d=identicon&s=500&'),
            avatar_version: 1,
          },
          everyone,
        ],
        [{ user_id: target.id, new_email: address }, everyone],
      ]);

      for (const api of [system.api, system.apiVia(1)]) {
        expectError(await api.get('/users/me', {}, as(target)), 401, 'UNAUTHORIZED', 'Invalid API key');
        expect(expectSuccess(await api.get<UserRecord>('/users/me', {}, { subdomain, auth: { email: address, apiKey: target.apiKey } })).delivery_email).toBe(address);
      }
    });

    it('tells only those who may see it a hidden address, and no one a new API address', async () => {
      const target = await fresh({ settings: { email_address_visibility: 3 } });
      events.clear();
      expectSuccess(await patchUser(boss, target, { new_email: `quiet-${target.id}@example.test` }));
      const published = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(published[0].event.person).toEqual({ user_id: target.id, delivery_email: `quiet-${target.id}@example.test` });
      const staff = (await system.db.user.findMany({ where: { realmId: realm.id, isActive: true, role: { lte: Role.ADMINISTRATOR } } })).map((u) => u.id);
      expect(published[0].users.sort()).toEqual([...staff, target.id].sort());
      expect(Object.keys(published[1].event.person as object)).toContain('avatar_url');
      expect(await events.settle(REALM_USER)).toHaveLength(2);
    });

    it.each([
      ['not-an-address', 'New email value error: Invalid address.'],
      ['ADAM@example.test', 'New email value error: Already has an account.'],
    ])('refuses %s and changes nothing', async (address, msg) => {
      const target = await fresh({ fullName: 'Unchanged' });
      const taken = address.startsWith('ADAM') ? admin.email.toUpperCase() : address;
      const before = await row(target);
      expectError(await patchUser(boss, target, { new_email: taken, full_name: 'Changed' }), 400, 'BAD_REQUEST', msg);
      expect(await row(target)).toEqual(before);
    });

    it("refuses a deactivated account's address", async () => {
      const target = await fresh();
      expectError(await patchUser(boss, target, { new_email: deactivated.email }), 400, 'BAD_REQUEST', 'New email value error: Account has been deactivated.');
    });
  });

  describe('DELETE /users/{user_id}', () => {
    it('deactivates the user, refuses their key at once everywhere, and deletes their event queues', async () => {
      const victim = await fresh({ fullName: 'Victor Victim' });
      // Both gateways remember the key, and a poll waits on the victim's queue.
      expectSuccess(await system.api.get('/users/me', {}, as(victim)));
      expectSuccess(await system.apiVia(1).get('/users/me', {}, as(victim)));
      const queue = await EventQueueClient.register(system.api, as(victim), { event_types: ['realm_user'] });
      const waiting = queue.request();
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.clear();

      const body = expectSuccess(await deactivate(admin, victim));
      expectMatchesOpenApi('delete', '/users/{user_id}', body);
      for (const api of [system.api, system.apiVia(1)]) {
        expectError(await api.get('/users/me', {}, as(victim)), 401, 'UNAUTHORIZED', 'Account is deactivated');
      }
      expect(await row(victim)).toMatchObject({ isActive: false });

      expectError(await waiting, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, { queue_id: queue.queueId });
      expect(await redis.keys(`${system.env.REDIS_KEY_PREFIX}eq:{p*}:q:${queue.queueId}*`)).toEqual([]);
      expect(await redis.hget(`${system.env.REDIS_KEY_PREFIX}eq:{p${realm.id % 8}}:r:${realm.id}`, String(victim.id))).toBeNull();

      const [published] = await events.waitFor<ClientEvent>(REALM_USER);
      expect([published.event, published.users]).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: victim.id, is_active: false } },
        await activeIds(),
      ]);
      // Clients drop a deactivated user from their groups themselves (Zulip sends these only to those who cannot see the user).
      expect(await events.publishedByNow(USER_GROUP)).toEqual([]);
      expect(events.of(ACCESS)).toEqual([{ realmId: realm.id, userId: victim.id, deactivated: true }]);
      expect(await events.settle(REALM_USER)).toHaveLength(1);
    });

    it('is not undone by a gateway that starts meanwhile and finds the key remembered in Redis', async () => {
      const victim = await fresh();
      expectSuccess(await system.api.get('/users/me', {}, as(victim))); // remembered in Redis by gateway 0
      await system.stopService('gateway#1');
      try {
        expectSuccess(await deactivate(admin, victim));
      } finally {
        await system.startService('gateway#1');
      }
      expectError(await system.apiVia(1).get('/users/me', {}, as(victim)), 401, 'UNAUTHORIZED', 'Account is deactivated');
    });

    it('deactivates the active bots the user owns first, telling the owner too', async () => {
      const owning = await fresh();
      const [first, second] = [await fresh({ isBot: true, botOwnerId: owning.id }), await fresh({ isBot: true, botOwnerId: owning.id })];
      const retired = await fresh({ isBot: true, botOwnerId: owning.id, isActive: false });
      events.clear();
      expectSuccess(await deactivate(admin, owning));
      expect((await Promise.all([first, second, retired].map(row))).map((bot) => bot.isActive)).toEqual([false, false, false]);
      const published = await events.waitFor<ClientEvent>(REALM_USER, 3);
      const everyone = await activeIds();
      const withOwner = [...everyone, owning.id].sort((a, b) => a - b);
      expect(published.map((e) => [e.event.person, e.users])).toEqual([
        [{ user_id: first.id, is_active: false }, withOwner],
        [{ user_id: second.id, is_active: false }, withOwner],
        [{ user_id: owning.id, is_active: false }, everyone],
      ]);
      expect((await events.settle(ACCESS)).map((e) => e.userId)).toEqual([first.id, second.id, owning.id]);
      expect(await events.settle(REALM_USER)).toHaveLength(3);
    });

    it("delivers the deactivation to the organization's event queues", async () => {
      const victim = await fresh();
      const queue = await EventQueueClient.register(system.api, as(admin), { event_types: ['realm_user'] });
      expectSuccess(await deactivate(admin, victim));
      const [event] = await queue.waitFor('realm_user');
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: [event] });
      expect(event).toMatchObject({ type: 'realm_user', op: 'update', person: { user_id: victim.id, is_active: false } });
    });

    it('lets an administrator deactivate themselves', async () => {
      const leaving = await fresh({ role: Role.ADMINISTRATOR });
      expectSuccess(await deactivate(leaving, leaving));
      expectError(await system.api.get('/users/me', {}, as(leaving)), 401, 'UNAUTHORIZED', 'Account is deactivated');
    });

    it('refuses what Zulip refuses, changing nothing', async () => {
      const sleeper = await fresh({ isActive: false });
      expectError(await deactivate(admin, sleeper), 400, 'BAD_REQUEST', 'User is deactivated');
      noSuchUser(await deactivate(admin, bot));
      noSuchUser(await deactivate(admin, outsider));
      noSuchUser(await deactivate(admin, 99999999));
      ownerRequired(await deactivate(admin, owner));
      expect(await row(bot)).toMatchObject({ isActive: true });
      expect(await row(owner)).toMatchObject({ isActive: true });
      expect(await row(outsider)).toMatchObject({ isActive: true });
    });

    it('refuses a deactivation_notification_comment over 2000 characters, changing nothing', async () => {
      const target = await fresh();
      const res = await system.api.delete(path(target), { deactivation_notification_comment: 'x'.repeat(2001) }, as(admin));
      expectError(res, 400, 'BAD_REQUEST', 'deactivation_notification_comment is too long (limit: 2000 characters)');
      expect(await row(target)).toMatchObject({ isActive: true });
    });

    it('is for administrators', async () => {
      const target = await fresh();
      for (const caller of [member, moderator, guest]) {
        adminRequired(await system.api.delete(path(target), { deactivation_notification_comment: 'Bye' }, as(caller)));
      }
      for (const caller of [member, moderator, guest]) adminRequired(await deactivate(caller, target));
      await expectCallersRefused((options) => system.api.delete(path(target), {}, options), { subdomain, member, outsider, deactivated });
      expect(await row(target)).toMatchObject({ isActive: true });
    });
  });

  describe('POST /users/{user_id}/reactivate', () => {
    it('reactivates the user, whose key works again, announcing their return to every group', async () => {
      const returning = await fresh();
      const team = await factory.userGroup(realm, { name: `team ${returning.id}`, members: [returning] });
      events.clear();
      expectSuccess(await deactivate(admin, returning));
      // The deactivation's own announcement may arrive after its answer: let it, then start afresh.
      await events.waitFor(REALM_USER);
      await events.settle(REALM_USER);
      events.clear();

      const body = expectSuccess(await reactivate(admin, returning));
      expectMatchesOpenApi('post', '/users/{user_id}/reactivate', body);
      expect(await row(returning)).toMatchObject({ isActive: true });
      expectSuccess(await system.api.get('/users/me', {}, as(returning)));
      expectSuccess(await system.apiVia(1).get('/users/me', {}, as(returning)));

      const [realmUser] = await events.waitFor<ClientEvent>(REALM_USER);
      const everyone = await activeIds();
      expect([realmUser.event, realmUser.users]).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: returning.id, is_active: true } }, everyone]);
      const groupEvents = await events.waitFor<ClientEvent>(USER_GROUP, 3);
      const expected = [...(await Promise.all(['role:members', 'role:fullmembers'].map(groupId))), team.id].sort((a, b) => a - b);
      expect(groupEvents.map((e) => e.event)).toEqual(
        expected.map((id) => ({ type: 'user_group', op: 'add_members', group_id: id, user_ids: [returning.id] })),
      );
      expect(groupEvents.every((e) => JSON.stringify(e.users) === JSON.stringify(everyone))).toBe(true);
    });

    it("gives a reactivated bot whose owner is gone to the administrator", async () => {
      const gone = await fresh({ isActive: false });
      // A name no active account has: a bot comes back only under one (Zulip's check_bot_name_available).
      const orphan = await fresh({ isBot: true, botOwnerId: gone.id, isActive: false, fullName: 'Orphaned Bot' });
      events.clear();
      expectSuccess(await reactivate(admin, orphan));
      expect(await row(orphan)).toMatchObject({ isActive: true, botOwnerId: admin.id });
      const published = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(published.map((e) => e.event.person)).toEqual([
        { user_id: orphan.id, is_active: true },
        { user_id: orphan.id, bot_owner_id: admin.id },
      ]);
    });

    it('leaves an active user as they are, announcing nothing', async () => {
      const target = await fresh();
      events.clear();
      expectSuccess(await reactivate(admin, target));
      expect(await events.publishedByNow(REALM_USER)).toEqual([]);
      expect(events.of(USER_GROUP)).toEqual([]);
    });

    it('is for administrators, and knows no other organization’s users', async () => {
      const sleeper = await fresh({ isActive: false });
      for (const caller of [member, moderator, guest]) adminRequired(await reactivate(caller, sleeper));
      noSuchUser(await reactivate(admin, outsider));
      noSuchUser(await reactivate(admin, 99999999));
      await expectCallersRefused((options) => system.api.post(`${path(sleeper)}/reactivate`, {}, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect(await row(sleeper)).toMatchObject({ isActive: false });
    });
  });

  describe('the last owner', () => {
    let firstOwner: TestUser, secondOwner: TestUser, realmAdmin: TestUser;
    const owners = { subdomain: 'owned-org' };

    beforeAll(async () => {
      const org = await factory.organizationWithStaff(owners);
      firstOwner = org.owner;
      realmAdmin = org.admin;
      secondOwner = await factory.user(org.realm, { role: Role.OWNER });
    });

    it('owners make and unmake owners, but the only one stays', async () => {
      const on = (user: TestUser) => ({ auth: user, subdomain: owners.subdomain });
      const third = await factory.user({ id: firstOwner.realmId }, { role: Role.MEMBER });
      expectSuccess(await system.api.patch(path(third), { role: Role.OWNER }, on(firstOwner)));
      expect((await row(third)).role).toBe(Role.OWNER);
      expectSuccess(await system.api.patch(path(third), { role: Role.ADMINISTRATOR }, on(secondOwner)));
      expectSuccess(await system.api.patch(path(secondOwner), { role: Role.MEMBER }, on(firstOwner)));
      expectError(
        await system.api.patch(path(firstOwner), { role: Role.ADMINISTRATOR }, on(firstOwner)),
        400,
        'BAD_REQUEST',
        'The owner permission cannot be removed from the only organization owner.',
      );
      expectError(await system.api.delete(path(firstOwner), {}, on(firstOwner)), 400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner');
      ownerRequired(await system.api.patch(path(firstOwner), { role: Role.ADMINISTRATOR }, on(realmAdmin)));
      expect(await row(firstOwner)).toMatchObject({ role: Role.OWNER, isActive: true });
    });
  });

  describe('POST /users', () => {
    const create = (caller: TestUser, form: Record<string, FormValue>, sub = subdomain) =>
      system.api.post<{ user_id: number }>('/users', form, { auth: caller, subdomain: sub });
    const valid = (email: string): Record<string, FormValue> => ({ email, password: 'Correct-Horse-Battery-9', full_name: '  New Person  ' });
    const usersNamed = (email: string) => system.db.user.count({ where: { deliveryEmail: { equals: email, mode: 'insensitive' } } });

    it('creates an account that can log in, announces it to every active user and adds it to its system groups', async () => {
      events.clear();
      const email = `new-${Date.now()}@example.test`;
      const body = expectSuccess(await create(admin, valid(email)));
      expectMatchesOpenApi('post', '/users', body);
      expect(Object.keys(body).sort()).toEqual(['msg', 'result', 'user_id']);
      expect(await row({ id: body.user_id })).toMatchObject({ realmId: realm.id, deliveryEmail: email, fullName: 'New Person', role: Role.MEMBER, isActive: true, isBot: false });

      const login = await system.api.post<{ api_key: string; user_id: number }>('/fetch_api_key', { username: email, password: 'Correct-Horse-Battery-9' }, { subdomain });
      expect(expectSuccess(login).user_id).toBe(body.user_id);

      const added = await events.waitFor<ClientEvent>(REALM_USER);
      const everyone = await activeIds();
      expect(added).toHaveLength(1);
      expect(added[0].users).toEqual(everyone);
      expect(added[0].event).toMatchObject({
        type: 'realm_user',
        op: 'add',
        person: { user_id: body.user_id, email, delivery_email: email, full_name: 'New Person', role: Role.MEMBER, is_active: true, is_bot: false },
      });
      // A member joins role:members, and role:fullmembers too (the organization has no waiting period).
      const joined = [await groupId('role:members'), await groupId('role:fullmembers')].sort((a, b) => a - b);
      const groups = await events.waitFor<ClientEvent>(USER_GROUP, 2);
      expect(groups.map((e) => [e.event.op, e.event.group_id, e.event.user_ids, e.users]).sort((a, b) => (a[1] as number) - (b[1] as number))).toEqual(
        joined.map((id) => ['add_members', id, [body.user_id], everyone]),
      );
      expect(await events.settle(USER_GROUP)).toHaveLength(2);
      expect(await events.settle(REALM_USER)).toHaveLength(1);
    });

    it("subscribes the new account to the organization's default channels, not to the others", async () => {
      const lobby = await factory.channel(realm, { name: `lobby-${Date.now()}` });
      const quiet = await factory.channel(realm, { name: `quiet-${Date.now()}` });
      await system.db.stream.update({ where: { id: lobby.id }, data: { isDefault: true } });
      try {
        const { user_id: id } = expectSuccess(await create(admin, valid(`joiner-${Date.now()}@example.test`)));
        const subscribed = await system.db.subscription.findMany({ where: { userId: id, active: true }, select: { streamId: true } });
        expect(subscribed.map((row) => row.streamId)).toContain(lobby.id);
        expect(subscribed.map((row) => row.streamId)).not.toContain(quiet.id);
      } finally {
        await system.db.stream.update({ where: { id: lobby.id }, data: { isDefault: false } });
      }
    });

    it("delivers the new account to the organization's event queues", async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['realm_user'] });
      const { user_id: id } = expectSuccess(await create(admin, valid(`queued-${Date.now()}@example.test`)));
      const [event] = await queue.waitFor('realm_user');
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: [event] });
      expect(event).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: id, full_name: 'New Person' } });
    });

    it.each<[string, (taken: string) => Record<string, FormValue>, string]>([
      ['an address in use', (taken) => ({ email: taken }), "Email '%s' already in use"],
      ['an address in use in another case', (taken) => ({ email: taken.toUpperCase() }), "Email '%S' already in use"],
      ['an invalid address', () => ({ email: 'not-an-address' }), 'Bad name or username'],
      ['an oversized address', () => ({ email: `${'a'.repeat(300)}@example.test` }), 'Bad name or username'],
      ['a weak password', () => ({ password: 'abc' }), 'The password is too weak.'],
      ['an empty name', () => ({ full_name: '   ' }), 'Name too short!'],
      ['an oversized name', () => ({ full_name: 'n'.repeat(101) }), 'Name too long!'],
      ['a name with forbidden characters', () => ({ full_name: 'Bad*Name' }), 'Invalid characters in name!'],
      ['a name with a control character', () => ({ full_name: 'Bad\u0007Name' }), 'Invalid characters in name!'],
      ['an address with two @', () => ({ email: 'a@b@example.test' }), 'Bad name or username'],
    ])('refuses %s, creating nothing', async (_name, change, msg) => {
      const taken = guest.email;
      const form = { ...valid(`refused-${Date.now()}@example.test`), ...change(taken) };
      const before = await system.db.user.count();
      expectError(await create(admin, form), 400, 'BAD_REQUEST', msg.replace('%s', taken).replace('%S', taken.toUpperCase()));
      expect(await system.db.user.count()).toBe(before);
      if (!String(form.email).startsWith('refused-')) expect(await usersNamed(String(form.email))).toBeLessThanOrEqual(1);
    });

    it('follows the server’s PASSWORD_MIN_LENGTH and PASSWORD_MIN_GUESSES (a development server’s take the documented example’s "temp")', async () => {
      const attempt = (password: string) => create(admin, { ...valid(`rules-${password}-${Date.now()}@example.test`), password });
      const before = await system.db.user.count();
      for (const password of ['temp', 'password']) expectError(await attempt(password), 400, 'BAD_REQUEST', 'The password is too weak.');
      expect(await system.db.user.count()).toBe(before);
      await system.stopService('users-groups');
      await system.startService('users-groups', true, { PASSWORD_MIN_LENGTH: '4', PASSWORD_MIN_GUESSES: '0' });
      try {
        // Four characters are enough, and with no guess estimate a common password passes too.
        const { user_id: id } = expectSuccess(await attempt('temp'));
        const login = await system.api.post<{ user_id: number }>('/fetch_api_key', { username: (await row({ id })).deliveryEmail, password: 'temp' }, { subdomain });
        expect(expectSuccess(login).user_id).toBe(id);
        expectSuccess(await attempt('password'));
        expectError(await attempt('abc'), 400, 'BAD_REQUEST', 'The password is too weak.');
      } finally {
        await system.stopService('users-groups');
        await system.startService('users-groups', true, { PASSWORD_MIN_LENGTH: '6', PASSWORD_MIN_GUESSES: '10000' });
      }
      expectError(await attempt('temp'), 400, 'BAD_REQUEST', 'The password is too weak.');
    });

    it('refuses a deactivated account’s address too', async () => {
      expectError(await create(admin, valid(deactivated.email)), 400, 'BAD_REQUEST', `Email '${deactivated.email}' already in use`);
    });

    it('refuses missing parameters', async () => {
      for (const name of ['email', 'password', 'full_name']) {
        const form = valid(`missing-${Date.now()}@example.test`);
        delete form[name];
        expectError(await create(admin, form), 400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });
      }
    });

    it('is for administrators, and creates in the caller’s organization only', async () => {
      const email = `denied-${Date.now()}@example.test`;
      for (const caller of [member, moderator, guest]) adminRequired(await create(caller, valid(email)));
      await expectCallersRefused((options) => system.api.post('/users', valid(email), options), { subdomain, member, outsider, deactivated });
      expect(await usersNamed(email)).toBe(0);
      // The same address is free in another organization.
      const elsewhere = expectSuccess(await create(outsider, valid(guest.email), 'admin-elsewhere'));
      expect(await row({ id: elsewhere.user_id })).toMatchObject({ realmId: outsider.realmId, deliveryEmail: guest.email });
    });
  });

  describe('DELETE /users/me', () => {
    it('deactivates the caller with the rule and announcements of DELETE /users/{user_id}', async () => {
      const leaving = await fresh({ fullName: 'Lea Ving' });
      const owned = await fresh({ isBot: true, botOwnerId: leaving.id });
      events.clear();
      const body = expectSuccess(await system.api.delete('/users/me', {}, as(leaving)));
      expectMatchesOpenApi('delete', '/users/me', body);
      expect(await row(leaving)).toMatchObject({ isActive: false });
      expect(await row(owned)).toMatchObject({ isActive: false });
      expectError(await system.api.get('/users/me', {}, as(leaving)), 401, 'UNAUTHORIZED', 'Account is deactivated');
      const everyone = await activeIds();
      const published = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(published.map((e) => [e.event.person, e.users])).toEqual([
        [{ user_id: owned.id, is_active: false }, [...everyone, leaving.id].sort((a, b) => a - b)],
        [{ user_id: leaving.id, is_active: false }, everyone],
      ]);
      expect((await events.settle(ACCESS)).map((e) => e.userId)).toEqual([owned.id, leaving.id]);
    });

    it('refuses the only owner and the only user with CANNOT_DEACTIVATE_LAST_USER, changing nothing', async () => {
      const org = await factory.organization({ subdomain: 'lonely-org' });
      const only = await factory.user(org, { role: Role.OWNER });
      const on = (user: TestUser) => ({ auth: user, subdomain: 'lonely-org' });
      const res = await system.api.delete('/users/me', {}, on(only));
      expectError(res, 400, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only user', { is_last_owner: false, entity: 'user' });
      expectMatchesOpenApi('delete', '/users/me', res.body, 400);

      const colleague = await factory.user(org);
      expectError(await system.api.delete('/users/me', {}, on(only)), 400, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner', {
        is_last_owner: true,
        entity: 'organization owner',
      });
      expect(await row(only)).toMatchObject({ isActive: true });
      // Another owner lifts it.
      await factory.user(org, { role: Role.OWNER });
      expectSuccess(await system.api.delete('/users/me', {}, on(only)));
      expect(await row(only)).toMatchObject({ isActive: false });
      expect(await row(colleague)).toMatchObject({ isActive: true });
    });

    it('refuses callers without valid credentials for the organization', async () => {
      await expectCallersRefused((options) => system.api.delete('/users/me', {}, options), { subdomain, member, outsider, deactivated });
      expect(await row(member)).toMatchObject({ isActive: true });
    });
  });
});

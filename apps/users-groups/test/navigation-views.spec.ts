import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type ApiResponse,
  type Credentials,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const CHANGED = 'event.users-groups.navigation_view_changed.v1';

const BUILT_IN = ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred'];

interface View {
  fragment: string;
  is_pinned: boolean;
  name?: string;
}

describe('navigation views', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, other: TestUser, deactivated: TestUser, outsider: TestUser;
  let outsiderSubdomain: string;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const list = (user: TestUser, sub = subdomain) => system.api.get<{ navigation_views: View[] }>('/navigation_views', {}, as(user, sub));
  const add = (user: TestUser, form: Record<string, FormValue>, sub = subdomain) => system.api.post('/navigation_views', form, as(user, sub));
  const edit = (user: TestUser, path: string, form: Record<string, FormValue>, sub = subdomain) =>
    system.api.patch(`/navigation_views/${path}`, form, as(user, sub));
  const remove = (user: TestUser, path: string, sub = subdomain) => system.api.delete(`/navigation_views/${path}`, {}, as(user, sub));
  /** A user of the test organization with no views yet. */
  const fresh = () => factory.user({ id: realmId });
  /** Stores a view directly, as if added earlier (no event). */
  const store = (user: TestUser, fragment: string, isPinned: boolean, name: string | null = null) =>
    system.db.navigationView.create({ data: { userId: user.id, fragment, isPinned, name } });
  /** Every stored view, for "nothing changed" checks. */
  const allViews = () => system.db.navigationView.findMany({ orderBy: { id: 'asc' } });
  const viewsOf = async (user: TestUser) =>
    (await system.db.navigationView.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })).map(({ fragment, isPinned, name }) => ({
      fragment,
      isPinned,
      name,
    }));
  const expectNoEvent = async () => expect(await events.publishedByNow(CHANGED)).toEqual([]);
  /** The event as GET /events would serve it, checked against the project's document. */
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'navviews' });
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    member = org.member;
    other = org.admin;
    deactivated = await factory.user(org.realm, { isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'navviews-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system?.stop());
  beforeEach(() => events.clear());

  describe('GET /navigation_views', () => {
    it('lists nothing for a user who stored no view', async () => {
      const body = expectSuccess(await list(await fresh()));
      expectMatchesOpenApi('get', '/navigation_views', body);
      expect(body).toEqual({ result: 'success', msg: '', navigation_views: [] });
    });

    it('lists the caller’s views oldest first, built-in ones without a name', async () => {
      const user = await fresh();
      await store(user, 'narrow/is/alerted', true, 'Alert words');
      await store(user, 'inbox', false);
      await store(user, 'narrow/channel/5-design', false, 'Design');
      await store(other, 'narrow/is/followed', true, 'Followed');
      await store(outsider, 'recent', true);
      const body = expectSuccess(await list(user));
      expectMatchesOpenApi('get', '/navigation_views', body);
      expect(body).toEqual({
        result: 'success',
        msg: '',
        navigation_views: [
          { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' },
          { fragment: 'inbox', is_pinned: false },
          { fragment: 'narrow/channel/5-design', is_pinned: false, name: 'Design' },
        ],
      });
      const theirs = expectSuccess(await list(outsider, outsiderSubdomain)).navigation_views;
      expect(theirs).toEqual([{ fragment: 'recent', is_pinned: true }]);
    });

    it('reports unsupported parameters', async () => {
      const res = await system.api.get('/navigation_views', { verbose: true }, as(member));
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['verbose']);
    });
  });

  describe('POST /navigation_views', () => {
    it('stores a built-in view’s pinning, without a name, and tells the owner', async () => {
      const user = await fresh();
      const body = expectSuccess(await add(user, { fragment: 'inbox', is_pinned: false }));
      expectMatchesOpenApi('post', '/navigation_views', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await viewsOf(user)).toEqual([{ fragment: 'inbox', isPinned: false, name: null }]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual({
        realmId,
        users: [user.id],
        event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: false } },
      });
      expectEventMatchesOpenApi(event.event);
      expect(expectSuccess(await list(user)).navigation_views).toEqual([{ fragment: 'inbox', is_pinned: false }]);
    });

    it('adds a custom view, its fragment and name stripped, and tells the owner', async () => {
      const user = await fresh();
      expectSuccess(await add(user, { fragment: '  narrow/is/alerted \n', is_pinned: true, name: '  Alert words  ' }));
      expect(await viewsOf(user)).toEqual([{ fragment: 'narrow/is/alerted', isPinned: true, name: 'Alert words' }]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual({
        realmId,
        users: [user.id],
        event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' } },
      });
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(CHANGED)).toHaveLength(1);
    });

    it.each(BUILT_IN)('takes %s as built-in: no name needed', async (fragment) => {
      const user = await fresh();
      expectSuccess(await add(user, { fragment, is_pinned: true }));
      expect(await viewsOf(user)).toEqual([{ fragment, isPinned: true, name: null }]);
    });

    it('recognises a built-in fragment after stripping it', async () => {
      const user = await fresh();
      expectError(await add(user, { fragment: ' recent ', is_pinned: true, name: 'Mine' }), 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
      expectSuccess(await add(user, { fragment: ' recent ', is_pinned: true }));
      expect(await viewsOf(user)).toEqual([{ fragment: 'recent', isPinned: true, name: null }]);
    });

    it('takes fragments and names up to the columns’ sizes, counting characters', async () => {
      const user = await fresh();
      const fragment = `narrow/search/${'é'.repeat(241)}`;
      expect(Array.from(fragment)).toHaveLength(255);
      const name = '😀'.repeat(100);
      expectSuccess(await add(user, { fragment, is_pinned: true, name }));
      expect(await viewsOf(user)).toEqual([{ fragment, isPinned: true, name }]);
    });

    it('lets different users store the same fragment and name', async () => {
      const first = await fresh();
      const second = await fresh();
      expectSuccess(await add(first, { fragment: 'narrow/is/followed', is_pinned: true, name: 'Followed' }));
      expectSuccess(await add(second, { fragment: 'narrow/is/followed', is_pinned: false, name: 'Followed' }));
      expect(await viewsOf(second)).toEqual([{ fragment: 'narrow/is/followed', isPinned: false, name: 'Followed' }]);
    });

    it('reports unsupported parameters', async () => {
      const user = await fresh();
      const res = await add(user, { fragment: 'feed', is_pinned: true, colour: 'red' });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['colour']);
    });

    describe('refusals', () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await fresh();
        await store(owner, 'inbox', true);
        await store(owner, 'narrow/is/alerted', true, 'Alert words');
      });

      it.each<[string, Record<string, FormValue>, string]>([
        ['a name for a built-in view', { fragment: 'recent', is_pinned: true, name: 'Recent' }, 'Built-in views cannot have a custom name.'],
        ['a name for another built-in view', { fragment: 'narrow/is/starred', is_pinned: false, name: 'Stars' }, 'Built-in views cannot have a custom name.'],
        ['a custom view without a name', { fragment: 'narrow/is/followed', is_pinned: true }, 'Custom views must have a valid name.'],
        ['a blank name', { fragment: 'narrow/is/followed', is_pinned: true, name: '  ' }, 'name cannot be blank'],
        ['an empty name', { fragment: 'narrow/is/followed', is_pinned: true, name: '' }, 'name cannot be blank'],
        ['an empty fragment', { fragment: '', is_pinned: true }, 'fragment cannot be blank'],
        ['a blank fragment', { fragment: ' \t ', is_pinned: true, name: 'x' }, 'fragment cannot be blank'],
        ['a fragment past 255 characters', { fragment: 'f'.repeat(256), is_pinned: true, name: 'x' }, 'fragment is too long (limit: 255 characters)'],
        ['a name past 100 characters', { fragment: 'narrow/is/followed', is_pinned: true, name: 'é'.repeat(101) }, 'name is too long (limit: 100 characters)'],
        ['a stored fragment', { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Other name' }, 'Navigation view already exists.'],
        ['a stored fragment once stripped', { fragment: ' narrow/is/alerted ', is_pinned: false, name: 'Other name' }, 'Navigation view already exists.'],
        ['a stored built-in view', { fragment: 'inbox', is_pinned: false }, 'Navigation view already exists.'],
        ['a name one of the caller’s views has', { fragment: 'narrow/is/followed', is_pinned: true, name: 'Alert words' }, 'Navigation view already exists.'],
        ['a name one of the caller’s views has, once stripped', { fragment: 'narrow/x', is_pinned: true, name: ' Alert words ' }, 'Navigation view already exists.'],
        ['is_pinned that is not JSON', { fragment: 'feed', is_pinned: 'yes' }, 'is_pinned is not valid JSON'],
        ['is_pinned that is not a boolean', { fragment: 'feed', is_pinned: 1 }, 'is_pinned is not a boolean'],
        ['a null byte in the name', { fragment: 'narrow/is/followed', is_pinned: true, name: 'a\u0000b' }, 'name must not contain null bytes'],
        ['a null byte in the fragment', { fragment: 'narrow/\u0000', is_pinned: true, name: 'x' }, 'fragment must not contain null bytes'],
      ])('refuses %s, storing and announcing nothing', async (_name, form, msg) => {
        const before = await allViews();
        const res = await add(owner, form);
        expectError(res, 400, 'BAD_REQUEST', msg);
        expectNoInternals(res);
        expect(await allViews()).toEqual(before);
        await expectNoEvent();
      });

      it.each([['fragment'], ['is_pinned']])('requires %s', async (missing) => {
        const before = await allViews();
        const form: Record<string, FormValue> = { fragment: 'narrow/is/followed', is_pinned: true, name: 'Followed' };
        delete form[missing];
        expectError(await add(owner, form), 400, 'REQUEST_VARIABLE_MISSING', `Missing '${missing}' argument`, { var_name: missing });
        expect(await allViews()).toEqual(before);
        await expectNoEvent();
      });
    });
  });

  describe('PATCH /navigation_views/{fragment}', () => {
    it('hides a stored built-in view and tells the owner the changed key', async () => {
      const user = await fresh();
      await store(user, 'inbox', true);
      const body = expectSuccess(await edit(user, 'inbox', { is_pinned: false }));
      expectMatchesOpenApi('patch', '/navigation_views/{fragment}', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await viewsOf(user)).toEqual([{ fragment: 'inbox', isPinned: false, name: null }]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual({ realmId, users: [user.id], event: { type: 'navigation_view', op: 'update', fragment: 'inbox', data: { is_pinned: false } } });
      expectEventMatchesOpenApi(event.event);
    });

    it('renames and pins a view whose fragment has slashes, named by the whole rest of the path', async () => {
      const user = await fresh();
      await store(user, 'narrow/is/alerted', false, 'Alert words');
      await store(user, 'narrow/is', false, 'Shorter');
      expectSuccess(await edit(user, 'narrow/is/alerted', { is_pinned: true, name: ' Watched phrases ' }));
      expect(await viewsOf(user)).toEqual([
        { fragment: 'narrow/is/alerted', isPinned: true, name: 'Watched phrases' },
        { fragment: 'narrow/is', isPinned: false, name: 'Shorter' },
      ]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event.event).toEqual({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched phrases', is_pinned: true } });
      expectEventMatchesOpenApi(event.event);
    });

    it('takes percent-encoded slashes and characters in the path as the fragment’s own', async () => {
      const user = await fresh();
      await store(user, 'narrow/channel/7-café', true, 'Café');
      expectSuccess(await edit(user, encodeURIComponent('narrow/channel/7-café'), { is_pinned: false }));
      expectSuccess(await edit(user, 'narrow/channel/7-caf%C3%A9', { name: 'Coffee' }));
      expect(await viewsOf(user)).toEqual([{ fragment: 'narrow/channel/7-café', isPinned: false, name: 'Coffee' }]);
    });

    it('changes only the keys passed', async () => {
      const user = await fresh();
      await store(user, 'narrow/is/alerted', true, 'Alert words');
      expectSuccess(await edit(user, 'narrow/is/alerted', { name: 'Phrases' }));
      expect(await viewsOf(user)).toEqual([{ fragment: 'narrow/is/alerted', isPinned: true, name: 'Phrases' }]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event.event).toEqual({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Phrases' } });
    });

    it('accepts a request that changes nothing, as Zulip does, and announces an empty change', async () => {
      const user = await fresh();
      await store(user, 'narrow/is/alerted', true, 'Alert words');
      const before = await allViews();
      expectSuccess(await edit(user, 'narrow/is/alerted', {}));
      expect(await allViews()).toEqual(before);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event.event).toEqual({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: {} });
      expectEventMatchesOpenApi(event.event);
    });

    it('strips the path’s fragment, as Zulip does', async () => {
      const user = await fresh();
      await store(user, 'feed', true);
      expectSuccess(await edit(user, '%20feed%20', { is_pinned: false }));
      expect(await viewsOf(user)).toEqual([{ fragment: 'feed', isPinned: false, name: null }]);
    });

    it('ignores a fragment in the body: the path names the view', async () => {
      const user = await fresh();
      await store(user, 'inbox', true);
      await store(user, 'recent', true);
      const res = await edit(user, 'inbox', { fragment: 'recent', is_pinned: false });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['fragment']);
      expect(await viewsOf(user)).toEqual([
        { fragment: 'inbox', isPinned: false, name: null },
        { fragment: 'recent', isPinned: true, name: null },
      ]);
    });

    describe('refusals', () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await fresh();
        await store(owner, 'inbox', true);
        await store(owner, 'narrow/is/alerted', true, 'Alert words');
        await store(owner, 'narrow/is/followed', true, 'Followed');
        await store(other, 'narrow/is/theirs', true, 'Theirs');
        await store(outsider, 'narrow/is/foreign', true, 'Foreign');
      });

      it.each<[string, string, Record<string, FormValue>]>([
        ['a custom view never stored', 'narrow/is/unknown', { is_pinned: false }],
        ['a built-in view never stored (the first setting is a POST)', 'recent', { is_pinned: false }],
        ['another user’s view', 'narrow/is/theirs', { is_pinned: false }],
        ['another organization’s view', 'narrow/is/foreign', { is_pinned: false }],
        ['a leading part of a stored fragment', 'narrow/is', { is_pinned: false }],
        ['a stored fragment with more after it', 'narrow/is/alerted/more', { is_pinned: false }],
        ['a stored fragment with a trailing slash', 'narrow/is/alerted/', { is_pinned: false }],
        ['a fragment of blanks', '%20%20', { is_pinned: false }],
        ['a fragment past the column’s size', 'f'.repeat(300), { name: 'Long' }],
      ])('answers 404 for %s, changing nothing', async (_name, path, form) => {
        const before = await allViews();
        const res = await edit(owner, path, form);
        expectError(res, 404, 'BAD_REQUEST', 'Navigation view does not exist.');
        expect(await allViews()).toEqual(before);
        await expectNoEvent();
      });

      it.each<[string, string, Record<string, FormValue>, string]>([
        ['a name for a stored built-in view', 'inbox', { is_pinned: false, name: 'Inbox view' }, 'Built-in views cannot have a custom name.'],
        ['a name for a built-in view never stored (checked first)', 'recent', { name: 'Recent' }, 'Built-in views cannot have a custom name.'],
        ['a name another of the caller’s views has', 'narrow/is/followed', { name: 'Alert words' }, 'Navigation view already exists.'],
        ['the view’s own name (Zulip counts it as taken)', 'narrow/is/alerted', { name: 'Alert words' }, 'Navigation view already exists.'],
        ['a taken name for a view never stored (checked before existence)', 'narrow/is/unknown', { name: 'Followed' }, 'Navigation view already exists.'],
        ['a blank name', 'narrow/is/alerted', { name: '   ' }, 'name cannot be blank'],
        ['a name past 100 characters', 'narrow/is/alerted', { name: 'n'.repeat(101) }, 'name is too long (limit: 100 characters)'],
        ['is_pinned that is not JSON', 'narrow/is/alerted', { is_pinned: 'no' }, 'is_pinned is not valid JSON'],
        ['is_pinned that is not a boolean', 'narrow/is/alerted', { is_pinned: '"false"' }, 'is_pinned is not a boolean'],
        ['a null byte in the name', 'narrow/is/alerted', { name: 'x\u0000' }, 'name must not contain null bytes'],
      ])('refuses %s with 400, changing nothing', async (_name, path, form, msg) => {
        const before = await allViews();
        const res = await edit(owner, path, form);
        expectError(res, 400, 'BAD_REQUEST', msg);
        expectNoInternals(res);
        expect(await allViews()).toEqual(before);
        await expectNoEvent();
      });

      it('answers a path with no fragment as an unknown path', async () => {
        const before = await allViews();
        expectError(await edit(owner, '', { is_pinned: false }), 404, 'NOT_FOUND', 'Not Found');
        expect(await allViews()).toEqual(before);
      });
    });
  });

  describe('DELETE /navigation_views/{fragment}', () => {
    it('removes a view whose fragment has slashes and tells the owner; a second removal finds nothing', async () => {
      const user = await fresh();
      await store(user, 'narrow/is/alerted', true, 'Alert words');
      await store(user, 'narrow/is', true, 'Shorter');
      const body = expectSuccess(await remove(user, 'narrow/is/alerted'));
      expectMatchesOpenApi('delete', '/navigation_views/{fragment}', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await viewsOf(user)).toEqual([{ fragment: 'narrow/is', isPinned: true, name: 'Shorter' }]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual({ realmId, users: [user.id], event: { type: 'navigation_view', op: 'remove', fragment: 'narrow/is/alerted' } });
      expectEventMatchesOpenApi(event.event);

      events.clear();
      expectError(await remove(user, 'narrow/is/alerted'), 404, 'BAD_REQUEST', 'Navigation view does not exist.');
      await expectNoEvent();
    });

    it('removes a stored built-in view, which goes back to the client’s default', async () => {
      const user = await fresh();
      await store(user, 'narrow/has/reaction/sender/me', false);
      expectSuccess(await remove(user, 'narrow/has/reaction/sender/me'));
      expect(await viewsOf(user)).toEqual([]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event.event).toEqual({ type: 'navigation_view', op: 'remove', fragment: 'narrow/has/reaction/sender/me' });
    });

    describe('refusals', () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await fresh();
        await store(owner, 'narrow/is/mine', true, 'Mine');
        await store(other, 'narrow/is/theirs-too', true, 'Theirs too');
        await store(outsider, 'narrow/is/foreign-too', true, 'Foreign too');
      });

      it.each<[string, string]>([
        ['a view never stored', 'narrow/is/unknown'],
        ['a built-in view never stored', 'feed'],
        ['another user’s view', 'narrow/is/theirs-too'],
        ['another organization’s view', 'narrow/is/foreign-too'],
        ['a leading part of a stored fragment', 'narrow/is'],
        ['a stored fragment with blanks around it (not stripped here, as in Zulip)', '%20narrow/is/mine%20'],
      ])('answers 404 for %s, removing nothing', async (_name, path) => {
        const before = await allViews();
        expectError(await remove(owner, path), 404, 'BAD_REQUEST', 'Navigation view does not exist.');
        expect(await allViews()).toEqual(before);
        await expectNoEvent();
      });
    });
  });

  describe('event queues and POST /register', () => {
    it('delivers the events to the owner’s queues that asked for them, and to nobody else', async () => {
      const user = await fresh();
      const bystander = await fresh();
      const mine = await EventQueueClient.register(system.api, as(user), { event_types: ['navigation_view'] });
      // No event_types: every type.
      const everything = await EventQueueClient.register(system.api, as(user), { fetch_event_types: ['navigation_views'] });
      const draftsOnly = await EventQueueClient.register(system.api, as(user), { event_types: ['drafts'] });
      const theirs = await EventQueueClient.register(system.api, as(bystander), { fetch_event_types: [] });

      expectSuccess(await add(user, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' }));
      expectSuccess(await edit(user, 'narrow/is/alerted', { is_pinned: false }));
      expectSuccess(await remove(user, 'narrow/is/alerted'));

      const expected = [
        { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' } },
        { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
        { type: 'navigation_view', op: 'remove', fragment: 'narrow/is/alerted' },
      ];
      for (const queue of [mine, everything]) {
        const received = await queue.waitFor('navigation_view', 3);
        expect(received.map(({ id: _id, ...event }) => event)).toEqual(expected);
        expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: received });
      }
      expect(await draftsOnly.settle()).toEqual([]);
      expect(await theirs.settle()).toEqual([]);
    });

    it('serves the caller’s stored views under navigation_views', async () => {
      const user = await fresh();
      await store(user, 'recent', false);
      await store(user, 'narrow/is/alerted', true, 'Alert words');
      await store(other, 'narrow/is/not-mine', true, 'Not mine');
      const queue = await EventQueueClient.register(system.api, as(user), { fetch_event_types: ['navigation_views'] });
      expect(queue.state.navigation_views).toEqual([
        { fragment: 'recent', is_pinned: false },
        { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' },
      ]);
      expectMatchesOpenApi('post', '/register', queue.state);

      const beside = await EventQueueClient.register(system.api, as(user), { fetch_event_types: ['drafts', 'navigation_views', 'user_settings'] });
      expect(beside.state.navigation_views).toEqual(queue.state.navigation_views);
      expect(beside.state).toHaveProperty('drafts');
      expectMatchesOpenApi('post', '/register', beside.state);
    });

    it('serves an empty list to a user without views, and nothing when not asked for', async () => {
      const user = await fresh();
      expect((await EventQueueClient.register(system.api, as(user), { fetch_event_types: ['navigation_views'] })).state.navigation_views).toEqual([]);
      await store(user, 'inbox', true);
      const draftsOnly = await EventQueueClient.register(system.api, as(user), { fetch_event_types: ['drafts'] });
      expect(draftsOnly.state).not.toHaveProperty('navigation_views');
    });
  });

  describe('who may call', () => {
    const calls: [string, (options: { subdomain: string; auth?: Credentials }) => Promise<ApiResponse<unknown>>][] = [
      ['GET /navigation_views', (options) => system.api.get('/navigation_views', {}, options)],
      ['POST /navigation_views', (options) => system.api.post('/navigation_views', { fragment: 'inbox', is_pinned: true }, options)],
      ['PATCH /navigation_views/{fragment}', (options) => system.api.patch('/navigation_views/narrow/is/alerted', { is_pinned: false }, options)],
      ['DELETE /navigation_views/{fragment}', (options) => system.api.delete('/navigation_views/narrow/is/alerted', {}, options)],
    ];

    // The view the PATCH and DELETE name exists: only the caller is wrong.
    beforeAll(() => store(member, 'narrow/is/alerted', true, 'Alert words'));

    it.each(calls)('%s refuses callers without valid credentials for the organization', async (_name, call) => {
      const before = await allViews();
      await expectCallersRefused(call, { subdomain, member, outsider, deactivated });
      expect(await allViews()).toEqual(before);
      await expectNoEvent();
    });
  });
});

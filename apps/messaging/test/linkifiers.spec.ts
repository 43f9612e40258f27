import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const LINKIFIERS_CHANGED = 'event.messaging.linkifiers_changed.v1';
const PLAYGROUNDS_CHANGED = 'event.messaging.playgrounds_changed.v1';

interface Linkifier {
  pattern: string;
  url_template: string;
  id: number;
}

describe('linkifiers and code playgrounds', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string, outsiderSubdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, deactivated: TestUser, outsider: TestUser;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const add = (user: TestUser, pattern: string, url_template: string, sub = subdomain) =>
    system.api.post<{ id: number }>('/realm/filters', { pattern, url_template }, as(user, sub));
  const list = async (user: TestUser = member, sub = subdomain) =>
    expectSuccess(await system.api.get<{ linkifiers: Linkifier[] }>('/realm/linkifiers', {}, as(user, sub))).linkifiers;
  const rows = () => system.db.realmLinkifier.findMany({ orderBy: { id: 'asc' } });
  const removeAll = async () => {
    for (const linkifier of await list()) expectSuccess(await system.api.delete(`/realm/filters/${linkifier.id}`, {}, as(admin)));
  };
  const render = async (content: string, user: TestUser = member) =>
    expectSuccess(await system.api.post<{ rendered: string }>('/messages/render', { content }, as(user))).rendered;
  const sendAndStored = async (content: string) => {
    const { id } = expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'links', content }, as(member)));
    return (await system.db.message.findUniqueOrThrow({ where: { id } })).renderedContent;
  };
  const link = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;
  /** Every active user of the organization (the audience of its configuration events). */
  const activeIds = async () =>
    (await system.db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((user) => user.id);
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'linkifiers' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    deactivated = await factory.user(org.realm, { isActive: false });
    await factory.channel(org.realm, { name: 'general', subscribers: [member, admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere-linkifiers' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(async () => {
    await removeAll();
    await events.clearPublished();
  });

  describe('POST /realm/filters and GET /realm/linkifiers', () => {
    it('adds linkifiers last in order, lists them to anyone and tells every active user the whole list', async () => {
      const body = expectSuccess(await add(admin, '  #(?P<id>[0-9]+)  ', ' https://github.com/zulip/zulip/issues/{id} '));
      expectMatchesOpenApi('post', '/realm/filters', body);
      const [event] = await events.waitFor<ClientEvent>(LINKIFIERS_CHANGED);
      const first = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}', id: body.id };
      expect(event.realmId).toBe(realmId);
      expect([...event.users].sort((a, b) => a - b)).toEqual(await activeIds());
      expect(event.users).not.toContain(deactivated.id);
      expect(event.event).toEqual({ type: 'realm_linkifiers', realm_linkifiers: [first] });
      expectEventMatchesOpenApi(event.event);

      const second = expectSuccess(await add(owner, 'PR (?P<id>[0-9]+)', 'https://example.com/pr/{id}')).id;
      const listed = expectSuccess(await system.api.get<{ linkifiers: Linkifier[] }>('/realm/linkifiers', {}, as(guest)));
      expectMatchesOpenApi('get', '/realm/linkifiers', listed);
      expect(listed.linkifiers).toEqual([first, { pattern: 'PR (?P<id>[0-9]+)', url_template: 'https://example.com/pr/{id}', id: second }]);
      expect(await list(outsider, outsiderSubdomain)).toEqual([]);
    });

    it.each([
      [{ pattern: '', url_template: 'https://x.test/{id}' }, 'This field cannot be blank.', { pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] }],
      [{ pattern: '(foo', url_template: 'https://x.test/' }, 'Bad regular expression: missing ): (foo', { __all__: ['Bad regular expression: missing ): (foo'] }],
      [{ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://x.test/{id}' }, 'Bad regular expression: bad repetition operator: ????', { __all__: ['Bad regular expression: bad repetition operator: ????'] }],
      [{ pattern: '#(?P<id>\\d+)(?=x)', url_template: 'https://x.test/{id}' }, 'Bad regular expression: invalid perl operator: (?=', { __all__: ['Bad regular expression: invalid perl operator: (?='] }],
      [{ pattern: '(?P<id>a)\\1', url_template: 'https://x.test/{id}' }, 'Bad regular expression: invalid escape sequence: \\1', { __all__: ['Bad regular expression: invalid escape sequence: \\1'] }],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }, "Group 'id' in linkifier pattern is not present in URL template.", { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] }],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://x.test/{hello}' }, "Group 'hello' in URL template is not present in linkifier pattern.", { __all__: ["Group 'hello' in URL template is not present in linkifier pattern."] }],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://x.test/{id' }, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: '   ' }, 'This field cannot be blank.', { url_template: ['This field cannot be blank.'] }],
      // Our guard against catastrophic backtracking (JavaScript's engine, not RE2, runs them).
      [{ pattern: '(?P<id>(a+)+)', url_template: 'https://x.test/{id}' }, 'Bad regular expression: nested repetition is not supported: (a+)+', { __all__: ['Bad regular expression: nested repetition is not supported: (a+)+'] }],
      [{ pattern: `(?P<id>${'x'.repeat(1000)})`, url_template: 'https://x.test/{id}' }, 'Bad regular expression: pattern too large - compile failed', { __all__: ['Bad regular expression: pattern too large - compile failed'] }],
    ])('refuses %j with Zulip’s error, changing nothing and telling nobody', async (form, msg, errors) => {
      const before = await rows();
      expectError(await add(admin, form.pattern, form.url_template), 400, 'BAD_REQUEST', msg, { errors });
      expect(await rows()).toEqual(before);
      expect(await events.publishedByNow(LINKIFIERS_CHANGED)).toEqual([]);
    });

    it('refuses a pattern the organization already has, but another organization may have it', async () => {
      expectSuccess(await add(admin, '#(?P<id>[0-9]+)', 'https://x.test/{id}'));
      const before = await rows();
      expectError(await add(admin, '#(?P<id>[0-9]+)', 'https://y.test/{id}'), 400, 'BAD_REQUEST', 'Realm filter with this Realm and Pattern already exists.', {
        errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
      });
      expect(await rows()).toEqual(before);
      expectSuccess(await add(outsider, '#(?P<id>[0-9]+)', 'https://y.test/{id}', outsiderSubdomain));
      expect((await list(outsider, outsiderSubdomain)).map((l) => l.url_template)).toEqual(['https://y.test/{id}']);
      expectSuccess(await system.api.delete(`/realm/filters/${(await list(outsider, outsiderSubdomain))[0].id}`, {}, as(outsider, outsiderSubdomain)));
    });

    it('refuses members, moderators and guests on every write, and callers without valid credentials on all', async () => {
      const id = expectSuccess(await add(admin, '#(?P<id>[0-9]+)', 'https://x.test/{id}')).id;
      const moderator = await factory.user({ id: realmId }, { role: Role.MODERATOR });
      events.clear();
      const before = await rows();
      for (const user of [member, moderator, guest]) {
        const refused = (res: Awaited<ReturnType<typeof add>>) => expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
        refused(await add(user, 'X(?P<id>[0-9]+)', 'https://x.test/{id}'));
        refused(await system.api.patch(`/realm/filters/${id}`, { pattern: 'Y(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' }, as(user)));
        refused(await system.api.delete(`/realm/filters/${id}`, {}, as(user)));
        refused(await system.api.patch('/realm/linkifiers', { ordered_linkifier_ids: [id] }, as(user)));
      }
      expect(await rows()).toEqual(before);
      expect(await events.publishedByNow(LINKIFIERS_CHANGED)).toEqual([]);
      await expectCallersRefused((options) => system.api.get('/realm/linkifiers', {}, options), { subdomain, member, outsider, deactivated });
      await expectCallersRefused((options) => system.api.post('/realm/filters', { pattern: 'a', url_template: 'b' }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH and DELETE /realm/filters/{filter_id}, PATCH /realm/linkifiers', () => {
    it('updates and deletes, telling everyone each time; another organization’s or an unknown id is not found', async () => {
      const id = expectSuccess(await add(admin, '#(?P<id>[123])', 'https://x.test/{id}')).id;
      events.clear();
      expectSuccess(await system.api.patch(`/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/issues/{id}' }, as(admin)));
      const [updated] = await events.waitFor<ClientEvent>(LINKIFIERS_CHANGED);
      expect(updated.event.realm_linkifiers).toEqual([{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/issues/{id}', id }]);

      const before = await rows();
      const theirs = expectSuccess(await add(outsider, 'Z(?P<id>[0-9]+)', 'https://z.test/{id}', outsiderSubdomain)).id;
      for (const unknown of [theirs, id + 100000, 2147483648]) {
        expectError(await system.api.patch(`/realm/filters/${unknown}`, { pattern: 'a', url_template: 'b' }, as(admin)), 400, 'BAD_REQUEST', 'Linkifier not found.');
        expectError(await system.api.delete(`/realm/filters/${unknown}`, {}, as(admin)), 400, 'BAD_REQUEST', 'Linkifier not found.');
      }
      expectError(
        await system.api.patch(`/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]+)', url_template: '{id' }, as(admin)),
        400,
        'BAD_REQUEST',
        'Invalid URL template.',
        { errors: { url_template: ['Invalid URL template.'] } },
      );
      expect((await rows()).filter((row) => row.realmId === realmId)).toEqual(before.filter((row) => row.realmId === realmId));
      expectSuccess(await system.api.delete(`/realm/filters/${theirs}`, {}, as(outsider, outsiderSubdomain)));

      events.clear();
      expectSuccess(await system.api.delete(`/realm/filters/${id}`, {}, as(admin)));
      const [removed] = await events.waitFor<ClientEvent>(LINKIFIERS_CHANGED);
      expect(removed.event).toEqual({ type: 'realm_linkifiers', realm_linkifiers: [] });
      expect(await list()).toEqual([]);
    });

    it('reorders when every linkifier is named once, and refuses anything else', async () => {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) ids.push(expectSuccess(await add(admin, `${n}#(?P<id>[0-9]+)`, `https://x.test/${n}/{id}`)).id);
      events.clear();
      const reorder = (order: unknown) => system.api.patch('/realm/linkifiers', { ordered_linkifier_ids: order as number[] }, as(admin));
      expectError(await reorder([ids[0], ids[0], ids[1], ids[2]]), 400, 'BAD_REQUEST', 'The ordered list must not contain duplicated linkifiers');
      expectError(await reorder([ids[0], ids[1]]), 400, 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once');
      expectError(await reorder([ids[0], ids[1], ids[2], 999999]), 400, 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once');
      expect((await list()).map((l) => l.id)).toEqual(ids);
      expect(await events.publishedByNow(LINKIFIERS_CHANGED)).toEqual([]);

      expectSuccess(await reorder([ids[2], ids[0], ids[1]]));
      expect((await list()).map((l) => l.id)).toEqual([ids[2], ids[0], ids[1]]);
      const [event] = await events.waitFor<ClientEvent>(LINKIFIERS_CHANGED);
      expect((event.event.realm_linkifiers as Linkifier[]).map((l) => l.id)).toEqual([ids[2], ids[0], ids[1]]);
      // A new one still goes last.
      const fourth = expectSuccess(await add(admin, '4#(?P<id>[0-9]+)', 'https://x.test/4/{id}')).id;
      expect((await list()).map((l) => l.id)).toEqual([ids[2], ids[0], ids[1], fourth]);
    });

    it('accepts an empty order when there are none, telling nobody', async () => {
      expectSuccess(await system.api.patch('/realm/linkifiers', { ordered_linkifier_ids: [] }, as(admin)));
      expect(await events.publishedByNow(LINKIFIERS_CHANGED)).toEqual([]);
    });
  });

  describe('register and event queues', () => {
    it('serves realm_linkifiers only to clients with linkifier_url_template, and only their queues get the events', async () => {
      const capable = await EventQueueClient.register(system.api, as(member), {
        fetch_event_types: ['realm_linkifiers', 'realm_filters', 'realm_playgrounds'],
        client_capabilities: { linkifier_url_template: true },
      });
      const legacy = await EventQueueClient.register(system.api, as(member), { fetch_event_types: ['realm_linkifiers', 'realm_playgrounds'] });
      expect(capable.state).toMatchObject({ realm_linkifiers: [], realm_filters: [], realm_playgrounds: [] });

      const id = expectSuccess(await add(admin, '#(?P<id>[0-9]+)', 'https://x.test/{id}')).id;
      const [received] = await capable.waitFor('realm_linkifiers');
      expect(received).toEqual({ id: received.id, type: 'realm_linkifiers', realm_linkifiers: [{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{id}', id }] });
      expect((await legacy.settle()).filter((event) => event.type === 'realm_linkifiers')).toEqual([]);

      const later = await EventQueueClient.register(system.api, as(guest), { fetch_event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } });
      expect(later.state.realm_linkifiers).toEqual([{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{id}', id }]);
      const without = await EventQueueClient.register(system.api, as(guest), { fetch_event_types: ['realm_linkifiers'] });
      expect(without.state.realm_linkifiers).toEqual([]);
    });
  });

  describe('messages rendered with linkifiers', () => {
    it('links matches at word boundaries, never inside code or existing links, expanding the URL template', async () => {
      expectSuccess(await add(admin, '#(?P<id>[0-9]+)', 'https://github.com/zulip/zulip/issues/{id}'));
      const issue = (n: number) => link(`https://github.com/zulip/zulip/issues/${n}`, `#${n}`);
      expect(await render('We should fix #224 and #115, but not issue#124 or #1124z or (#16) today.')).toBe(
        `<p>We should fix ${issue(224)} and ${issue(115)}, but not issue#124 or #1124z or (${issue(16)}) today.</p>`,
      );
      expect(await render('`#5` and [#7](https://example.com/seven) and https://example.com/#8')).toBe(
        `<p><code>#5</code> and ${link('https://example.com/seven', '#7')} and ${link('https://example.com/#8', 'https://example.com/#8')}</p>`,
      );
      expect(await render('```\n#9\n```')).toBe('<pre><code>#9\n</code></pre>');
      expect(await render('**#10**')).toBe(`<p><strong>${issue(10)}</strong></p>`);
      // Sending renders with them too, and stores the result.
      expect(await sendAndStored('see #42')).toBe(`<p>see ${issue(42)}</p>`);
    });

    it('expands templates as RFC 6570 does (encoding, reserved and named expansions) and leaves unsafe URLs as text', async () => {
      expectSuccess(await add(admin, '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issues/{id}'));
      expectSuccess(await add(admin, 'search:(?P<q>[a-z&=]+)', 'https://search.test/{?q}'));
      expectSuccess(await add(admin, 'path:(?P<p>[a-z/]+)', 'https://files.test{/p}{+p}'));
      expectSuccess(await add(admin, 'js:(?P<code>[a-z]+)', 'javascript:{code}'));
      expect(await render('zulip/zulip#123')).toBe(`<p>${link('https://github.com/zulip/zulip/issues/123', 'zulip/zulip#123')}</p>`);
      expect(await render('search:a&b=c')).toBe(`<p>${link('https://search.test/?q=a%26b%3Dc', 'search:a&amp;b=c')}</p>`);
      expect(await render('path:a/b')).toBe(`<p>${link('https://files.test/a%2Fba/b', 'path:a/b')}</p>`);
      expect(await render('js:alert')).toBe('<p>js:alert</p>');
    });

    it('applies linkifiers in order, the first to match winning, and the next send sees every change', async () => {
      const general = expectSuccess(await add(admin, '#(?P<id>[0-9]+)', 'https://general.test/{id}')).id;
      const special = expectSuccess(await add(admin, '#(?P<id>1[0-9]*)', 'https://special.test/{id}')).id;
      expect(await sendAndStored('#12 #34')).toBe(`<p>${link('https://general.test/12', '#12')} ${link('https://general.test/34', '#34')}</p>`);
      expectSuccess(await system.api.patch('/realm/linkifiers', { ordered_linkifier_ids: [special, general] }, as(admin)));
      expect(await sendAndStored('#12 #34')).toBe(`<p>${link('https://special.test/12', '#12')} ${link('https://general.test/34', '#34')}</p>`);
      expectSuccess(await system.api.patch(`/realm/filters/${general}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://changed.test/{id}' }, as(admin)));
      expect(await sendAndStored('#34')).toBe(`<p>${link('https://changed.test/34', '#34')}</p>`);
      expectSuccess(await system.api.delete(`/realm/filters/${general}`, {}, as(admin)));
      expectSuccess(await system.api.delete(`/realm/filters/${special}`, {}, as(admin)));
      expect(await sendAndStored('#34')).toBe('<p>#34</p>');
    });

    it('uses only the sender’s organization’s linkifiers', async () => {
      expectSuccess(await add(outsider, '#(?P<id>[0-9]+)', 'https://theirs.test/{id}', outsiderSubdomain));
      expect(await render('#5')).toBe('<p>#5</p>');
      const theirs = await list(outsider, outsiderSubdomain);
      expectSuccess(await system.api.delete(`/realm/filters/${theirs[0].id}`, {}, as(outsider, outsiderSubdomain)));
    });
  });

  describe('code playgrounds (POST /realm/playgrounds, DELETE /realm/playgrounds/{playground_id})', () => {
    const addPlayground = (user: TestUser, form: Record<string, string>, sub = subdomain) =>
      system.api.post<{ id: number }>('/realm/playgrounds', form, as(user, sub));
    const playgrounds = () => system.db.realmPlayground.findMany({ orderBy: { id: 'asc' } });

    it('adds and removes playgrounds, telling everyone the whole list; register serves them', async () => {
      const body = expectSuccess(await addPlayground(admin, { name: ' Python playground ', pygments_language: 'python ', url_template: 'https://python.example.com?code={code}' }));
      expectMatchesOpenApi('post', '/realm/playgrounds', body);
      const [added] = await events.waitFor<ClientEvent>(PLAYGROUNDS_CHANGED);
      const record = { id: body.id, name: 'Python playground', pygments_language: 'python', url_template: 'https://python.example.com?code={code}' };
      expect(added.event).toEqual({ type: 'realm_playgrounds', realm_playgrounds: [record] });
      expect([...added.users].sort((a, b) => a - b)).toEqual(await activeIds());
      expectEventMatchesOpenApi(added.event);
      const state = expectSuccess(await system.api.post<{ realm_playgrounds: unknown[] }>('/register', { fetch_event_types: ['realm_playgrounds'] }, as(guest)));
      expect(state.realm_playgrounds).toEqual([record]);

      events.clear();
      expectError(await system.api.delete(`/realm/playgrounds/${body.id}`, {}, as(member)), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expectError(await system.api.delete(`/realm/playgrounds/${body.id}`, {}, as(outsider, outsiderSubdomain)), 400, 'BAD_REQUEST', 'Invalid playground');
      expectError(await system.api.delete('/realm/playgrounds/2147483648', {}, as(admin)), 400, 'BAD_REQUEST', 'Invalid playground');
      expect(await events.publishedByNow(PLAYGROUNDS_CHANGED)).toEqual([]);
      expectSuccess(await system.api.delete(`/realm/playgrounds/${body.id}`, {}, as(admin)));
      const [removed] = await events.waitFor<ClientEvent>(PLAYGROUNDS_CHANGED);
      expect(removed.event).toEqual({ type: 'realm_playgrounds', realm_playgrounds: [] });
    });

    it.each([
      [{ name: 'P', pygments_language: 'x'.repeat(41), url_template: 'https://p.test/{code}' }, 'pygments_language is too long (limit: 40 characters)', undefined],
      [{ name: 'P', pygments_language: 'py$', url_template: 'https://p.test/{code}' }, 'Invalid characters in pygments language', undefined],
      [{ name: 'P', pygments_language: 'py!', url_template: 'https://p.test/{code}' }, 'Invalid characters in pygments language', undefined],
      [{ name: 'P', pygments_language: ' ', url_template: 'https://p.test/{code}' }, 'This field cannot be blank.', { pygments_language: ['This field cannot be blank.'] }],
      [{ name: ' ', pygments_language: 'python', url_template: 'https://p.test/{code}' }, 'This field cannot be blank.', { name: ['This field cannot be blank.'] }],
      [{ name: 'P', pygments_language: 'python', url_template: 'https://p.test/{code' }, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
      [{ name: 'P', pygments_language: 'python', url_template: 'https://p.test/' }, 'Missing the required variable "code" in the URL template', { __all__: ['Missing the required variable "code" in the URL template'] }],
      [{ name: 'P', pygments_language: 'python', url_template: 'https://p.test/{code}{x}' }, '"code" should be the only variable present in the URL template', { __all__: ['"code" should be the only variable present in the URL template'] }],
    ])('refuses %j with Zulip’s error, changing nothing', async (form, msg, errors) => {
      const before = await playgrounds();
      expectError(await addPlayground(admin, form), 400, 'BAD_REQUEST', msg, errors ? { errors } : {});
      expect(await playgrounds()).toEqual(before);
    });

    it('takes Pygments’ lexer names as Zulip 11 does: capitals (the documented example), spaces, and the comma its character range lets in', async () => {
      const documented = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };
      const python = expectSuccess(await addPlayground(admin, documented)).id;
      const other = expectSuccess(await addPlayground(admin, { name: 'Odd', pygments_language: ' Objective-C++, C# ', url_template: 'https://p.test/{code}' })).id;
      const stored = (await playgrounds()).filter((row) => [python, other].includes(row.id));
      expect(stored.map((row) => row.pygmentsLanguage)).toEqual(['Python', 'Objective-C++, C#']);
      for (const id of [python, other]) expectSuccess(await system.api.delete(`/realm/playgrounds/${id}`, {}, as(admin)));
    });

    it('refuses a second playground of the same name for a language, and members', async () => {
      const form = { name: 'Rust', pygments_language: 'rust', url_template: 'https://play.rust-lang.org/?code={code}' };
      const id = expectSuccess(await addPlayground(admin, form)).id;
      const before = await playgrounds();
      expectError(await addPlayground(admin, form), 400, 'BAD_REQUEST', 'Realm playground with this Realm, Pygments language and Name already exists.', {
        errors: { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] },
      });
      expectError(await addPlayground(member, { ...form, name: 'Other' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expect(await playgrounds()).toEqual(before);
      expectSuccess(await addPlayground(outsider, form, outsiderSubdomain));
      expectSuccess(await system.api.delete(`/realm/playgrounds/${id}`, {}, as(admin)));
      await expectCallersRefused((options) => system.api.post('/realm/playgrounds', form, options), { subdomain, member, outsider, deactivated });
    });
  });
});

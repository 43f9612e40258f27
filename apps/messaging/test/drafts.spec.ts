import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type ApiResponse,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const DRAFTS_CHANGED = 'event.messaging.drafts_changed.v1';

interface Draft {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** An expected message; a function when it names data made in beforeAll. */
type Message = string | (() => string);

describe('drafts', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, other: TestUser, third: TestUser, guest: TestUser, admin: TestUser, deactivated: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  let general: { id: number }, secret: { id: number }, inner: { id: number }, archived: { id: number }, foreign: { id: number };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const create = (user: TestUser, drafts: unknown, sub = subdomain) =>
    system.api.post<{ ids: number[] }>('/drafts', { drafts: drafts as never }, as(user, sub));
  const edit = (user: TestUser, id: number | string, draft: unknown, sub = subdomain) =>
    system.api.patch(`/drafts/${id}`, { draft: draft as never }, as(user, sub));
  const remove = (user: TestUser, id: number | string, sub = subdomain) => system.api.delete(`/drafts/${id}`, {}, as(user, sub));
  const list = (user: TestUser, sub = subdomain) => system.api.get<{ count: number; drafts: Draft[] }>('/drafts', {}, as(user, sub));
  /** Every stored draft, for "nothing changed" checks. */
  const allDrafts = () => system.db.draft.findMany({ orderBy: { id: 'asc' } });
  const rowOf = (id: number) => system.db.draft.findUniqueOrThrow({ where: { id } });
  const channelDraft = (to: number, topic = 'plans', content = 'About the plans') => ({ type: 'stream', to: [to], topic, content });
  const createOne = async (user: TestUser, draft: unknown = channelDraft(general.id), sub = subdomain) => {
    const { ids } = expectSuccess(await create(user, [draft], sub));
    return ids[0];
  };
  /** No drafts event was published by what the test just did (see EventRecorder.publishedByNow). */
  const expectNoEvent = async () => expect(await events.publishedByNow(DRAFTS_CHANGED)).toEqual([]);
  /** The body of a drafts event as GET /events would serve it, checked against the reference. */
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'drafts' });
    ({ member, guest, admin } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    third = await factory.user(org.realm, { fullName: 'Third Member' });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin] });
    inner = await factory.channel(org.realm, { name: 'inner', inviteOnly: true, subscribers: [member, guest] });
    archived = await factory.channel(org.realm, { name: 'old', subscribers: [member] });
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreign = await factory.channel(elsewhere, { name: 'general', subscribers: [outsider] });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('POST /drafts', () => {
    it('creates channel, direct and unaddressed drafts, answers their ids in order and tells the owner', async () => {
      const res = await create(member, [
        { type: 'stream', to: [general.id], topic: 'sync drafts', content: 'Backend support', timestamp: 1595479019 },
        { type: 'private', to: [other.id], topic: '', content: 'Hello there', timestamp: 1595479020 },
        { type: 'private', to: [third.id, other.id], topic: '', content: 'Hello both', timestamp: 1595479021 },
        { type: '', to: [], topic: '', content: 'Nobody yet', timestamp: 1595479022 },
      ]);
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/drafts', body);
      expect(Object.keys(body).sort()).toEqual(['ids', 'msg', 'result']);
      expect(body.ids).toHaveLength(4);
      expect([...body.ids].sort((a, b) => a - b)).toEqual(body.ids);
      const [a, b, c, d] = body.ids;

      const expected: Draft[] = [
        { id: a, type: 'stream', to: [general.id], topic: 'sync drafts', content: 'Backend support', timestamp: 1595479019 },
        { id: b, type: 'private', to: [other.id], topic: '', content: 'Hello there', timestamp: 1595479020 },
        { id: c, type: 'private', to: [other.id, third.id], topic: '', content: 'Hello both', timestamp: 1595479021 },
        { id: d, type: '', to: [], topic: '', content: 'Nobody yet', timestamp: 1595479022 },
      ];
      const rows = await system.db.draft.findMany({ where: { id: { in: body.ids } }, orderBy: { id: 'asc' } });
      expect(rows.map((row) => ({ ...row, lastEditTime: row.lastEditTime.getTime() / 1000 }))).toEqual(
        expected.map(({ id, type, to, topic, content, timestamp }) => ({ id, userId: member.id, type, to, topic, content, lastEditTime: timestamp })),
      );

      const [event] = await events.waitFor<ClientEvent>(DRAFTS_CHANGED);
      expect(event).toEqual({ realmId, users: [member.id], event: { type: 'drafts', op: 'add', drafts: expected } });
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(DRAFTS_CHANGED)).toHaveLength(1);
    });

    it('fills in the timestamp when absent and keeps whole seconds of a fractional one', async () => {
      const before = nowSeconds();
      const { ids } = expectSuccess(
        await create(member, [
          { type: '', to: [], topic: '', content: 'now' },
          { type: '', to: [], topic: '', content: 'fraction', timestamp: 1595479019.75 },
          { type: '', to: [], topic: '', content: 'epoch', timestamp: 0 },
        ]),
      );
      const after = nowSeconds();
      const [event] = await events.waitFor<ClientEvent>(DRAFTS_CHANGED);
      const [now, fraction, epoch] = event.event.drafts as Draft[];
      expect(now.timestamp).toBeGreaterThanOrEqual(before);
      expect(now.timestamp).toBeLessThanOrEqual(after);
      expect(fraction.timestamp).toBe(1595479019);
      expect(epoch.timestamp).toBe(0);
      expect((await rowOf(ids[1])).lastEditTime.getTime()).toBe(1595479019750);
    });

    it('truncates a long topic to 60 characters as Zulip does, counting characters not bytes', async () => {
      const exactly60 = 'é'.repeat(60);
      const { ids } = expectSuccess(
        await create(member, [channelDraft(general.id, 'x'.repeat(61)), channelDraft(general.id, exactly60), channelDraft(general.id, '😀'.repeat(70))]),
      );
      expect((await rowOf(ids[0])).topic).toBe(`${'x'.repeat(57)}...`);
      expect((await rowOf(ids[1])).topic).toBe(exactly60);
      expect((await rowOf(ids[2])).topic).toBe(`${'😀'.repeat(57)}...`);
    });

    it('strips the content and truncates it past 10000 characters', async () => {
      const { ids } = expectSuccess(
        await create(member, [
          { type: '', to: [], topic: '', content: '  \n  indented?\n\n  ' },
          { type: '', to: [], topic: '', content: 'y'.repeat(10001) },
          { type: '', to: [], topic: '', content: 'z'.repeat(10000) },
        ]),
      );
      expect((await rowOf(ids[0])).content).toBe('indented?');
      const truncated = (await rowOf(ids[1])).content;
      expect(truncated).toBe(`${'y'.repeat(10000 - 20)}\n[message truncated]`);
      expect(truncated).toHaveLength(10000);
      expect((await rowOf(ids[2])).content).toBe('z'.repeat(10000));
    });

    it('stores direct recipients as Zulip shows them: the others, once each, sorted; oneself alone', async () => {
      const { ids } = expectSuccess(
        await create(member, [
          { type: 'private', to: [third.id, other.id, third.id, member.id], topic: 'ignored', content: 'group' },
          { type: 'private', to: [other.id, member.id], topic: '', content: 'one-on-one' },
          { type: 'private', to: [member.id], topic: '', content: 'note to self' },
        ]),
      );
      expect(await Promise.all(ids.map(async (id) => (({ type, to, topic }) => ({ type, to, topic }))(await rowOf(id))))).toEqual([
        { type: 'private', to: [other.id, third.id].sort((x, y) => x - y), topic: '' },
        { type: 'private', to: [other.id], topic: '' },
        { type: 'private', to: [member.id], topic: '' },
      ]);
    });

    it('ignores the addressees and topic of an unaddressed draft, and keeps a direct draft to nobody as unaddressed', async () => {
      const { ids } = expectSuccess(
        await create(member, [
          { type: '', to: [general.id, 999999], topic: 'ignored', content: 'loose' },
          { type: 'private', to: [], topic: 'ignored', content: 'to whom?' },
        ]),
      );
      const rows = await Promise.all(ids.map(rowOf));
      expect(rows.map(({ type, to, topic }) => ({ type, to, topic }))).toEqual([
        { type: '', to: [], topic: '' },
        { type: '', to: [], topic: '' },
      ]);
    });

    it('accepts a channel the caller may read: public, or private and subscribed (guests only subscribed)', async () => {
      expectSuccess(await create(member, [channelDraft(general.id), channelDraft(inner.id)]));
      expectSuccess(await create(guest, [channelDraft(inner.id)]));
      expectSuccess(await create(admin, [channelDraft(secret.id)]));
    });

    it('creates nothing and tells nobody for an empty list', async () => {
      const before = await allDrafts();
      const body = expectSuccess(await create(member, []));
      expect(body.ids).toEqual([]);
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it('reports unsupported parameters', async () => {
      const res = await system.api.post('/drafts', { drafts: [channelDraft(general.id)], verbose: true }, as(member));
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['verbose']);
    });

    it('accepts multipart form data as well', async () => {
      const res = await system.api.post<{ ids: number[] }>('/drafts', { drafts: [channelDraft(general.id)] }, { ...as(member), multipart: true });
      const { ids } = expectSuccess(res);
      expect((await rowOf(ids[0])).userId).toBe(member.id);
    });

    const valid = () => ({ type: '', to: [], topic: '', content: 'fine' });
    it.each<[string, () => unknown, Message]>([
      ['a channel draft without a channel', () => [{ type: 'stream', to: [], topic: 't', content: 'c' }], 'Must specify exactly 1 channel ID for channel messages'],
      ['a channel draft to two channels', () => [{ type: 'stream', to: [general.id, inner.id], topic: 't', content: 'c' }], 'Must specify exactly 1 channel ID for channel messages'],
      ['an unknown channel', () => [channelDraft(999999)], 'Invalid channel ID'],
      ['a channel ID past the column range', () => [channelDraft(2 ** 40)], 'Invalid channel ID'],
      ['a channel ID of zero', () => [channelDraft(0)], 'Invalid channel ID'],
      ['a private channel the caller is not in', () => [channelDraft(secret.id)], 'Invalid channel ID'],
      ['an archived channel', () => [channelDraft(archived.id)], 'Invalid channel ID'],
      ['another organization’s channel', () => [channelDraft(foreign.id)], 'Invalid channel ID'],
      ['an unknown user', () => [{ type: 'private', to: [999999], topic: '', content: 'c' }], 'Invalid user ID 999999'],
      ['a user ID past the column range', () => [{ type: 'private', to: [other.id, 2 ** 40], topic: '', content: 'c' }], `Invalid user ID ${2 ** 40}`],
      ['a deactivated user', () => [{ type: 'private', to: [deactivated.id], topic: '', content: 'c' }], () => `Invalid user ID ${deactivated.id}`],
      ['another organization’s user', () => [{ type: 'private', to: [outsider.id], topic: '', content: 'c' }], () => `Invalid user ID ${outsider.id}`],
      ['a negative timestamp', () => [{ ...valid(), timestamp: -1 }], 'Timestamp must not be negative.'],
      ['a timestamp past year 9999', () => [{ ...valid(), timestamp: 1e13 }], 'drafts[0]["timestamp"] is too large'],
      ['a textual timestamp', () => [{ ...valid(), timestamp: '1595479019' }], 'drafts[0]["timestamp"] is not an integer'],
      ['an id', () => [{ ...valid(), id: 5 }], 'Argument "id" at drafts[0] is unexpected'],
      ['an unknown key', () => [{ ...valid(), colour: 'red' }], 'Argument "colour" at drafts[0] is unexpected'],
      ['an unknown type', () => [{ ...valid(), type: 'direct' }], 'Invalid drafts[0]["type"]'],
      ['a missing type', () => [{ to: [], topic: '', content: 'c' }], 'Invalid drafts[0]["type"]'],
      ['a missing topic', () => [{ type: '', to: [], content: 'c' }], 'drafts[0]["topic"] is not a string'],
      ['a numeric topic', () => [{ ...valid(), topic: 5 }], 'drafts[0]["topic"] is not a string'],
      ['a missing content', () => [{ type: '', to: [], topic: '' }], 'drafts[0]["content"] is not a string'],
      ['a blank content', () => [{ ...valid(), content: ' \n\t ' }], 'drafts[0]["content"] cannot be blank'],
      ['an empty content', () => [{ ...valid(), content: '' }], 'drafts[0]["content"] cannot be blank'],
      ['a missing to', () => [{ type: '', topic: '', content: 'c' }], 'drafts[0]["to"] is not a list'],
      ['a to that is not a list', () => [{ ...valid(), to: 5 }], 'drafts[0]["to"] is not a list'],
      ['a textual ID in to', () => [{ ...valid(), type: 'private', to: [String(other.id)] }], 'drafts[0]["to"][0] is not an integer'],
      ['a fractional ID in to', () => [{ ...valid(), type: 'private', to: [1.5] }], 'drafts[0]["to"][0] is not an integer'],
      ['a draft that is not an object', () => ['hello'], 'drafts[0] is not a dict'],
      ['a null draft', () => [null], 'drafts[0] is not a dict'],
      ['a list that is an object', () => valid(), 'drafts is not a list'],
      ['text that is not JSON', () => 'not json', 'drafts is not valid JSON'],
      ['truncated JSON', () => '[{"type": ""', 'drafts is not valid JSON'],
      ['a null byte in the topic', () => [{ ...channelDraft(general.id), topic: 'nul\u0000topic' }], 'drafts[0]["topic"] must not contain null bytes'],
      ['a null byte in the content', () => [{ ...valid(), content: 'nul\u0000content' }], 'drafts[0]["content"] must not contain null bytes'],
      ['a bad second draft after a good one', () => [valid(), channelDraft(999999)], 'Invalid channel ID'],
    ])('refuses %s, storing and announcing nothing', async (_name, drafts, msg) => {
      const before = await allDrafts();
      const res = await create(member, drafts());
      expectError(res, 400, 'BAD_REQUEST', typeof msg === 'function' ? msg() : msg);
      expectNoInternals(res);
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it('refuses a raw null byte in the form value as invalid JSON', async () => {
      const before = await allDrafts();
      const body = `drafts=${encodeURIComponent('[{"type":"","to":[],"topic":"","content":"a')}%00${encodeURIComponent('b"}]')}`;
      expectError(await system.api.raw('POST', '/drafts', body, as(member)), 400, 'BAD_REQUEST', 'drafts is not valid JSON');
      expect(await allDrafts()).toEqual(before);
    });

    it('requires drafts', async () => {
      expectError(await system.api.post('/drafts', {}, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'drafts' argument", {
        var_name: 'drafts',
      });
      await expectNoEvent();
    });
  });

  describe('GET /drafts', () => {
    it('lists nothing for a user without drafts', async () => {
      const fresh = await factory.user({ id: realmId });
      const body = expectSuccess(await list(fresh));
      expectMatchesOpenApi('get', '/drafts', body);
      expect(body).toEqual({ result: 'success', msg: '', count: 0, drafts: [] });
    });

    it('lists only the caller’s drafts, most recently edited first', async () => {
      const writer = await factory.user({ id: realmId });
      const { ids } = expectSuccess(
        await create(writer, [
          { type: 'stream', to: [general.id], topic: 'old', content: 'oldest', timestamp: 1000 },
          { type: 'private', to: [other.id], topic: '', content: 'newest', timestamp: 3000 },
          { type: '', to: [], topic: '', content: 'middle', timestamp: 2000 },
        ]),
      );
      await createOne(other);
      const body = expectSuccess(await list(writer));
      expectMatchesOpenApi('get', '/drafts', body);
      expect(body).toEqual({
        result: 'success',
        msg: '',
        count: 3,
        drafts: [
          { id: ids[1], type: 'private', to: [other.id], topic: '', content: 'newest', timestamp: 3000 },
          { id: ids[2], type: '', to: [], topic: '', content: 'middle', timestamp: 2000 },
          { id: ids[0], type: 'stream', to: [general.id], topic: 'old', content: 'oldest', timestamp: 1000 },
        ],
      });
    });

    it('lists at most the 1000 newest drafts', async () => {
      const prolific = await factory.user({ id: realmId });
      await system.db.draft.createMany({
        data: Array.from({ length: 1003 }, (_, i) => ({
          userId: prolific.id,
          type: '',
          to: [],
          topic: '',
          content: `draft ${i}`,
          lastEditTime: new Date((1_000_000 + i) * 1000),
        })),
      });
      const body = expectSuccess(await list(prolific));
      expect(body.count).toBe(1000);
      expect(body.drafts).toHaveLength(1000);
      expect(body.drafts[0]).toMatchObject({ content: 'draft 1002', timestamp: 1_001_002 });
      expect(body.drafts[999]).toMatchObject({ content: 'draft 3', timestamp: 1_000_003 });
    });

    it('keeps organizations apart', async () => {
      await createOne(outsider, { type: '', to: [], topic: '', content: 'elsewhere' }, outsiderSubdomain);
      const mine = expectSuccess(await list(member)).drafts;
      expect(mine.some((draft) => draft.content === 'elsewhere')).toBe(false);
      const theirs = expectSuccess(await list(outsider, outsiderSubdomain)).drafts;
      expect(theirs.map((draft) => draft.content)).toEqual(['elsewhere']);
    });
  });

  describe('PATCH /drafts/{draft_id}', () => {
    it('replaces the draft and tells the owner', async () => {
      const id = await createOne(member, { type: '', to: [], topic: '', content: 'first', timestamp: 1000 });
      await events.waitFor(DRAFTS_CHANGED);
      events.clear();
      const res = await edit(member, id, { type: 'stream', to: [inner.id], topic: 'later', content: ' second ', timestamp: 2000 });
      const body = expectSuccess(res);
      expectMatchesOpenApi('patch', '/drafts/{draft_id}', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      const expected: Draft = { id, type: 'stream', to: [inner.id], topic: 'later', content: 'second', timestamp: 2000 };
      expect(await rowOf(id)).toEqual({ id, userId: member.id, type: 'stream', to: [inner.id], topic: 'later', content: 'second', lastEditTime: new Date(2000_000) });
      const [event] = await events.waitFor<ClientEvent>(DRAFTS_CHANGED);
      expect(event).toEqual({ realmId, users: [member.id], event: { type: 'drafts', op: 'update', draft: expected } });
      expectEventMatchesOpenApi(event.event);
    });

    it('applies the same rules as creation: direct recipients, ignored fields, fresh timestamp', async () => {
      const id = await createOne(member, channelDraft(general.id));
      const before = nowSeconds();
      expectSuccess(await edit(member, id, { type: 'private', to: [third.id, member.id], topic: 'ignored', content: 'hi' }));
      const row = await rowOf(id);
      expect(row).toMatchObject({ type: 'private', to: [third.id], topic: '', content: 'hi' });
      expect(row.lastEditTime.getTime()).toBeGreaterThanOrEqual(before * 1000);
      expectSuccess(await edit(member, id, { type: 'stream', to: [general.id], topic: 't'.repeat(70), content: 'c' }));
      expect((await rowOf(id)).topic).toBe(`${'t'.repeat(57)}...`);
      expectSuccess(await edit(member, id, { type: '', to: [general.id], topic: 'ignored', content: 'c' }));
      expect(await rowOf(id)).toMatchObject({ type: '', to: [], topic: '' });
    });

    it('ignores a draft_id in the body: the path names the draft', async () => {
      const id = await createOne(member);
      const otherId = await createOne(member);
      const res = await system.api.patch(
        `/drafts/${id}`,
        { draft: { type: '', to: [], topic: '', content: 'by path' }, draft_id: otherId },
        as(member),
      );
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['draft_id']);
      expect((await rowOf(id)).content).toBe('by path');
      expect((await rowOf(otherId)).content).toBe('About the plans');
    });

    it('treats another user’s draft, or one of another organization, as not existing', async () => {
      const othersDraft = await createOne(other);
      const outsidersDraft = await createOne(outsider, { type: '', to: [], topic: '', content: 'theirs' }, outsiderSubdomain);
      await events.waitFor(DRAFTS_CHANGED, 2);
      events.clear();
      const before = await allDrafts();
      for (const id of [othersDraft, outsidersDraft]) {
        expectError(await edit(member, id, { type: '', to: [], topic: '', content: 'mine now' }), 404, 'BAD_REQUEST', 'Draft does not exist');
      }
      // Not existing comes before any check of the new content.
      expectError(await edit(member, othersDraft, channelDraft(999999)), 404, 'BAD_REQUEST', 'Draft does not exist');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it.each([['999999'], ['0'], ['-1'], [String(2 ** 40)]])('answers 404 for the unknown draft id %s', async (id) => {
      const before = await allDrafts();
      expectError(await edit(member, id, { type: '', to: [], topic: '', content: 'x' }), 404, 'BAD_REQUEST', 'Draft does not exist');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, (id: number) => string]>([
      ['a word', () => 'abc'],
      ['a fraction', () => '1.5'],
      ['trailing letters', (id) => `${id}x`],
      ['a blank', () => '%20'],
      ['the id as a decimal', (id) => `${id}.0`],
      ['the id in exponent form', (id) => `${id}e0`],
      ['the id after a space', (id) => `%20${id}`],
      ['the id with a leading zero', (id) => `0${id}`],
    ])('answers a path with %s, which names no draft, with a JSON 404', async (_name, path) => {
      const id = await createOne(member);
      await events.waitFor(DRAFTS_CHANGED);
      events.clear();
      const before = await allDrafts();
      const res = await edit(member, path(id), { type: '', to: [], topic: '', content: 'x' });
      expectError(res, 404, 'NOT_FOUND', 'Not Found');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, () => unknown, Message]>([
      ['a channel draft without a channel', () => ({ type: 'stream', to: [], topic: 't', content: 'c' }), 'Must specify exactly 1 channel ID for channel messages'],
      ['an inaccessible channel', () => channelDraft(secret.id), 'Invalid channel ID'],
      ['another organization’s channel', () => channelDraft(foreign.id), 'Invalid channel ID'],
      ['another organization’s user', () => ({ type: 'private', to: [outsider.id], topic: '', content: 'c' }), () => `Invalid user ID ${outsider.id}`],
      ['a negative timestamp', () => ({ type: '', to: [], topic: '', content: 'c', timestamp: -5 }), 'Timestamp must not be negative.'],
      ['an id', () => ({ id: 1, type: '', to: [], topic: '', content: 'c' }), 'Argument "id" at draft is unexpected'],
      ['a blank content', () => ({ type: '', to: [], topic: '', content: '   ' }), 'draft["content"] cannot be blank'],
      ['an unknown type', () => ({ type: 'huddle', to: [], topic: '', content: 'c' }), 'Invalid draft["type"]'],
      ['a null byte in the topic', () => ({ type: 'stream', to: [general.id], topic: '\u0000', content: 'c' }), 'draft["topic"] must not contain null bytes'],
      ['a null byte in the content', () => ({ type: '', to: [], topic: '', content: 'a\u0000' }), 'draft["content"] must not contain null bytes'],
      ['a list instead of a draft', () => [{ type: '', to: [], topic: '', content: 'c' }], 'draft is not a dict'],
      ['text that is not JSON', () => 'draft', 'draft is not valid JSON'],
    ])('refuses %s and changes nothing', async (_name, draft, msg) => {
      const id = await createOne(member);
      await events.waitFor(DRAFTS_CHANGED);
      events.clear();
      const before = await allDrafts();
      const res = await edit(member, id, draft());
      expectError(res, 400, 'BAD_REQUEST', typeof msg === 'function' ? msg() : msg);
      expectNoInternals(res);
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it('requires draft', async () => {
      const id = await createOne(member);
      expectError(await system.api.patch(`/drafts/${id}`, {}, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument", {
        var_name: 'draft',
      });
    });
  });

  describe('DELETE /drafts/{draft_id}', () => {
    it('deletes the draft and tells the owner', async () => {
      const id = await createOne(member);
      const kept = await createOne(member);
      await events.waitFor(DRAFTS_CHANGED, 2);
      events.clear();
      const body = expectSuccess(await remove(member, id));
      expectMatchesOpenApi('delete', '/drafts/{draft_id}', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await system.db.draft.findUnique({ where: { id } })).toBeNull();
      expect(await system.db.draft.findUnique({ where: { id: kept } })).not.toBeNull();
      const [event] = await events.waitFor<ClientEvent>(DRAFTS_CHANGED);
      expect(event).toEqual({ realmId, users: [member.id], event: { type: 'drafts', op: 'remove', draft_id: id } });
      expectEventMatchesOpenApi(event.event);
      expect(expectSuccess(await list(member)).drafts.some((draft) => draft.id === id)).toBe(false);

      events.clear();
      expectError(await remove(member, id), 404, 'BAD_REQUEST', 'Draft does not exist');
      await expectNoEvent();
    });

    it('does not delete another user’s draft, or one of another organization', async () => {
      const othersDraft = await createOne(other);
      const outsidersDraft = await createOne(outsider, { type: '', to: [], topic: '', content: 'theirs' }, outsiderSubdomain);
      await events.waitFor(DRAFTS_CHANGED, 2);
      events.clear();
      const before = await allDrafts();
      expectError(await remove(member, othersDraft), 404, 'BAD_REQUEST', 'Draft does not exist');
      expectError(await remove(member, outsidersDraft), 404, 'BAD_REQUEST', 'Draft does not exist');
      expectError(await remove(admin, othersDraft), 404, 'BAD_REQUEST', 'Draft does not exist');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it.each([['999999'], ['0'], ['-3'], [String(2 ** 40)]])('answers 404 for the unknown draft id %s', async (id) => {
      const before = await allDrafts();
      expectError(await remove(member, id), 404, 'BAD_REQUEST', 'Draft does not exist');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, (id: number) => string]>([
      ['a word', () => 'abc'],
      ['an exponent without digits', (id) => `${id}e`],
      ['the id as a decimal', (id) => `${id}.0`],
      ['the id in exponent form', (id) => `${id}e0`],
      ['the id after a space', (id) => `%20${id}`],
      ['the id in quotes', (id) => `%22${id}%22`],
    ])('answers a path with %s, which names no draft, with a JSON 404', async (_name, path) => {
      const id = await createOne(member);
      await events.waitFor(DRAFTS_CHANGED);
      events.clear();
      const before = await allDrafts();
      expectError(await remove(member, path(id)), 404, 'NOT_FOUND', 'Not Found');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });
  });

  describe('with drafts synchronization turned off', () => {
    let quiet: TestUser;
    let quietDraft: number;

    beforeAll(async () => {
      quiet = await factory.user({ id: realmId });
      quietDraft = await createOne(quiet);
      await system.db.user.update({ where: { id: quiet.id }, data: { settings: { enable_drafts_synchronization: false } } });
    });

    it.each<[string, () => Promise<ApiResponse<unknown>>]>([
      ['POST /drafts', () => create(quiet, [channelDraft(general.id)])],
      ['PATCH /drafts/{draft_id}', () => edit(quiet, quietDraft, { type: '', to: [], topic: '', content: 'changed' })],
      ['DELETE /drafts/{draft_id}', () => remove(quiet, quietDraft)],
      ['GET /drafts', () => list(quiet)],
    ])('refuses %s and changes nothing', async (_name, call) => {
      const before = await allDrafts();
      expectError(await call(), 400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.');
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });

    it('falls back to the organization’s default when the user has no value, and to on without either', async () => {
      const realm = await factory.organization();
      const user = await factory.user(realm);
      expectSuccess(await create(user, [{ type: '', to: [], topic: '', content: 'c' }], realm.subdomain));
      await system.db.realm.update({ where: { id: realm.id }, data: { userSettingsDefaults: { enable_drafts_synchronization: false } } });
      expectError(await create(user, [{ type: '', to: [], topic: '', content: 'c' }], realm.subdomain), 400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.');
      await system.db.user.update({ where: { id: user.id }, data: { settings: { enable_drafts_synchronization: true } } });
      expectSuccess(await create(user, [{ type: '', to: [], topic: '', content: 'c' }], realm.subdomain));
    });
  });

  describe('who may call', () => {
    const calls: [string, (auth: { auth?: TestUser | { email: string; apiKey: string }; subdomain: string }) => Promise<ApiResponse<unknown>>][] = [
      ['GET /drafts', (options) => system.api.get('/drafts', {}, options)],
      ['POST /drafts', (options) => system.api.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'c' }] }, options)],
      ['PATCH /drafts/{draft_id}', (options) => system.api.patch('/drafts/1', { draft: { type: '', to: [], topic: '', content: 'c' } }, options)],
      ['DELETE /drafts/{draft_id}', (options) => system.api.delete('/drafts/1', {}, options)],
    ];

    it.each(calls)('%s refuses callers without valid credentials for the organization', async (_name, call) => {
      const before = await allDrafts();
      await expectCallersRefused(call, { subdomain, member, outsider, deactivated });
      expect(await allDrafts()).toEqual(before);
      await expectNoEvent();
    });
  });

  describe('saved snippets (GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{id})', () => {
    const SNIPPETS_CHANGED = 'event.messaging.saved_snippets_changed.v1';
    interface Snippet {
      id: number;
      title: string;
      content: string;
      date_created: number;
    }
    const listSnippets = (user: TestUser, sub = subdomain) => system.api.get<{ saved_snippets: Snippet[] }>('/saved_snippets', {}, as(user, sub));
    const createSnippet = (user: TestUser, form: Record<string, string>, sub = subdomain) =>
      system.api.post<{ saved_snippet_id: number }>('/saved_snippets', form, as(user, sub));
    const allSnippets = () => system.db.savedSnippet.findMany({ orderBy: { id: 'asc' } });

    it('creates, lists, edits and deletes the caller’s snippets, telling only the owner', async () => {
      const before = nowSeconds();
      const body = expectSuccess(await createSnippet(other, { title: '  Welcome  ', content: ' Welcome to the team! ' }));
      expectMatchesOpenApi('post', '/saved_snippets', body);
      const id = body.saved_snippet_id;
      const [added] = await events.waitFor<ClientEvent>(SNIPPETS_CHANGED);
      expect(added).toMatchObject({ realmId, users: [other.id], event: { type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Welcome', content: 'Welcome to the team!' } } });
      expectEventMatchesOpenApi(added.event);

      const listed = expectSuccess(await listSnippets(other));
      expectMatchesOpenApi('get', '/saved_snippets', listed);
      expect(listed.saved_snippets).toHaveLength(1);
      expect(listed.saved_snippets[0]).toMatchObject({ id, title: 'Welcome', content: 'Welcome to the team!' });
      expect(listed.saved_snippets[0].date_created).toBeGreaterThanOrEqual(before);
      expect(expectSuccess(await listSnippets(member)).saved_snippets).toEqual([]); // someone else's

      events.clear();
      expectSuccess(await system.api.patch(`/saved_snippets/${id}`, { content: 'Welcome aboard!' }, as(other)));
      const [updated] = await events.waitFor<ClientEvent>(SNIPPETS_CHANGED);
      expect(updated.event).toMatchObject({ op: 'update', saved_snippet: { id, title: 'Welcome', content: 'Welcome aboard!' } });
      expectEventMatchesOpenApi(updated.event);
      // Nothing to change: a success and no event, as in Zulip.
      events.clear();
      expectSuccess(await system.api.patch(`/saved_snippets/${id}`, {}, as(other)));
      expect(await events.publishedByNow(SNIPPETS_CHANGED)).toEqual([]);

      // The register state has it.
      const state = expectSuccess(await system.api.post<{ saved_snippets: Snippet[] }>('/register', { fetch_event_types: ['saved_snippets'] }, as(other)));
      expect(state.saved_snippets.map((snippet) => snippet.content)).toEqual(['Welcome aboard!']);

      events.clear();
      expectSuccess(await system.api.delete(`/saved_snippets/${id}`, {}, as(other)));
      const [removed] = await events.waitFor<ClientEvent>(SNIPPETS_CHANGED);
      expect(removed.event).toEqual({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id });
      expectEventMatchesOpenApi(removed.event);
      expect(expectSuccess(await listSnippets(other)).saved_snippets).toEqual([]);
    });

    it('refuses blank and too long titles and contents, changing nothing', async () => {
      const before = await allSnippets();
      expectError(await createSnippet(member, { title: '   ', content: 'x' }), 400, 'BAD_REQUEST', 'title cannot be blank');
      expectError(await createSnippet(member, { title: 'x', content: '' }), 400, 'BAD_REQUEST', 'content cannot be blank');
      expectError(await createSnippet(member, { title: 'x'.repeat(61), content: 'x' }), 400, 'BAD_REQUEST', 'title is too long (limit: 60 characters)');
      expectError(await createSnippet(member, { content: 'x' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'title' argument", { var_name: 'title' });
      const id = expectSuccess(await createSnippet(member, { title: 'Kept', content: 'As it was' })).saved_snippet_id;
      expectError(await system.api.patch(`/saved_snippets/${id}`, { title: '' }, as(member)), 400, 'BAD_REQUEST', 'title cannot be blank');
      expect((await allSnippets()).filter((row) => !before.some((b) => b.id === row.id)).map((row) => [row.title, row.content])).toEqual([['Kept', 'As it was']]);
    });

    it('answers 404 for a snippet that is not the caller’s, in any organization, and changes nothing', async () => {
      const mine = expectSuccess(await createSnippet(member, { title: 'Mine', content: 'Only mine' })).saved_snippet_id;
      const before = await allSnippets();
      for (const [user, sub] of [[other, subdomain], [outsider, outsiderSubdomain]] as const) {
        expectError(await system.api.patch(`/saved_snippets/${mine}`, { title: 'Theirs' }, as(user, sub)), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
        expectError(await system.api.delete(`/saved_snippets/${mine}`, {}, as(user, sub)), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
      }
      expectError(await system.api.delete('/saved_snippets/2147483648', {}, as(member)), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
      expect(await allSnippets()).toEqual(before);
    });

    it('refuses callers without valid credentials, deactivated ones and those of another organization', async () => {
      await expectCallersRefused((options) => system.api.get('/saved_snippets', {}, options), { subdomain, member, outsider, deactivated });
      await expectCallersRefused((options) => system.api.post('/saved_snippets', { title: 't', content: 'c' }, options), { subdomain, member, outsider, deactivated });
    });
  });
});

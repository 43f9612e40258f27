import { Role } from '@teamchat/zulip';
import { Factory, TestSystem, expectError, expectMatchesOpenApi, expectSuccess, type TestUser } from '@teamchat/testing';

interface Page {
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited: boolean;
  messages: { id: number; content: string; subject: string; flags: string[]; type: string; display_recipient: unknown; avatar_url: unknown }[];
}

describe('GET /messages', () => {
  let system: TestSystem;
  let factory: Factory;
  let sub: string;
  let realmId: number;
  let owner: TestUser, member: TestUser, friend: TestUser, guest: TestUser, late: TestUser;
  let outsider: TestUser;
  let lunch: number[];
  let dinner: number[];
  let secretIds: number[];
  let dm: number;

  const as = (user: TestUser) => ({ auth: user, subdomain: sub });
  const get = (user: TestUser, query: Record<string, unknown>) => system.api.get<Page>('/messages', query as never, as(user));
  const page = async (user: TestUser, query: Record<string, unknown>) => expectSuccess(await get(user, query));
  const send = async (user: TestUser, form: Record<string, unknown>) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form as never, as(user))).id;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'read' });
    ({ owner, member, guest } = org);
    sub = org.realm.subdomain;
    realmId = org.realm.id;
    friend = await factory.user(org.realm, { fullName: 'Friend' });
    await factory.channel(org.realm, { name: 'general', subscribers: [owner, member, friend] });
    await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [owner, member] });
    lunch = [];
    dinner = [];
    for (let i = 0; i < 5; i++) lunch.push(await send(member, { type: 'stream', to: 'general', topic: 'lunch', content: `lunch ${i}` }));
    for (let i = 0; i < 3; i++) dinner.push(await send(friend, { type: 'stream', to: 'general', topic: 'Dinner', content: `dinner **${i}**`, read_by_sender: true }));
    secretIds = [await send(owner, { type: 'stream', to: 'secret', topic: 'plans', content: 'before late joined' })];
    late = await factory.user(org.realm, { fullName: 'Late Joiner' });
    await factory.subscribe(late, await system.db.stream.findFirstOrThrow({ where: { name: 'secret' } }));
    secretIds.push(await send(owner, { type: 'stream', to: 'secret', topic: 'plans', content: 'after late joined' }));
    dm = await send(friend, { type: 'direct', to: JSON.stringify([member.id]), content: 'just us' });
    const elsewhere = await factory.organization({ subdomain: 'read-elsewhere' });
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
  });
  afterAll(() => system.stop());

  it('returns the newest messages of the caller, oldest first, in the OpenAPI shape', async () => {
    const body = await page(member, { anchor: 'newest', num_before: 3, num_after: 0 });
    expectMatchesOpenApi('get', '/messages', body);
    expect(body.messages.map((m) => m.id)).toEqual([secretIds[0], secretIds[1], dm]);
    expect(body).toMatchObject({ found_newest: true, found_oldest: false, found_anchor: false, history_limited: false });
  });

  it('walks backwards and forwards from a numeric anchor', async () => {
    const around = await page(member, { anchor: String(lunch[2]), num_before: 1, num_after: 1 });
    expect(around.messages.map((m) => m.id)).toEqual([lunch[1], lunch[2], lunch[3]]);
    expect(around).toMatchObject({ anchor: lunch[2], found_anchor: true });
    const without = await page(member, { anchor: String(lunch[2]), num_before: 1, num_after: 1, include_anchor: false });
    expect(without.messages.map((m) => m.id)).toEqual([lunch[1], lunch[3]]);
  });

  it('starts from the oldest message', async () => {
    const body = await page(member, { anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(body.messages.map((m) => m.id)).toEqual([lunch[0], lunch[1]]);
    expect(body).toMatchObject({ found_oldest: true, found_newest: false });
  });

  it('anchors at the first unread message', async () => {
    const body = await page(friend, { anchor: 'first_unread', num_before: 0, num_after: 1, narrow: [{ operator: 'channel', operand: 'general' }] });
    expect(body.messages.map((m) => m.id)).toEqual([lunch[0], lunch[1]]);
    expect(body).toMatchObject({ anchor: lunch[0], found_anchor: true });
  });

  it('narrows to a channel and topic, matching the topic whatever its case', async () => {
    const body = await page(member, {
      anchor: 'newest',
      num_before: 10,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'dinner' },
      ],
    });
    expect(body.messages.map((m) => m.id)).toEqual(dinner);
    expect(body.messages[0]).toMatchObject({ subject: 'Dinner', type: 'stream', display_recipient: 'general', content: '<p>dinner <strong>0</strong></p>' });
  });

  it('accepts a channel id and the legacy pair form of a narrow', async () => {
    const id = (await system.db.stream.findFirstOrThrow({ where: { name: 'general' } })).id;
    const body = await page(member, { anchor: 'newest', num_before: 100, narrow: [['stream', id]] });
    expect(body.messages.map((m) => m.id)).toEqual([...lunch, ...dinner]);
  });

  it('narrows to a direct conversation', async () => {
    const body = await page(member, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'dm', operand: [friend.id] }] });
    expect(body.messages.map((m) => m.id)).toEqual([dm]);
    expect(body.messages[0].type).toBe('private');
    const none = await page(member, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'dm', operand: [owner.id] }] });
    expect(none.messages).toEqual([]);
  });

  it('narrows to unread messages and reports flags', async () => {
    const body = await page(friend, { anchor: 'newest', num_before: 100, narrow: [{ operator: 'is', operand: 'unread' }] });
    // The direct message friend sent from an API client starts unread for them too.
    expect(body.messages.map((m) => m.id)).toEqual([...lunch, dm]);
    expect(body.messages.every((m) => !m.flags.includes('read'))).toBe(true);
  });

  it('shows raw Markdown without apply_markdown, and avatars unless client_gravatar', async () => {
    const body = await page(member, { anchor: String(dinner[0]), num_before: 0, num_after: 0, apply_markdown: false, client_gravatar: false });
    expect(body.messages[0].content).toBe('dinner **0**');
    expect(body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  it('shows a public channel’s history to a member who never received it, as read and historical', async () => {
    const stranger = await factory.user({ id: realmId }, { fullName: 'Stranger' });
    const body = await page(stranger, { anchor: 'oldest', num_after: 2, narrow: [{ operator: 'channel', operand: 'general' }] });
    expect(body.messages.map((m) => m.id)).toEqual([lunch[0], lunch[1]]);
    expect(body.messages[0].flags).toEqual(['read', 'historical']);
    const own = await page(stranger, { anchor: 'newest', num_before: 10 });
    expect(own.messages).toEqual([]);
  });

  it('hides protected history from a subscriber who joined later', async () => {
    const body = await page(late, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'channel', operand: 'secret' }] });
    expect(body.messages.map((m) => m.id)).toEqual([secretIds[1]]);
  });

  it('refuses a private channel to a non-subscriber and a public one to a guest', async () => {
    expectError(await get(friend, { narrow: JSON.stringify([{ operator: 'channel', operand: 'secret' }]) }), 400, 'BAD_REQUEST', 'Invalid narrow operand: unknown channel secret');
    expectError(await get(guest, { narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]) }), 400, 'BAD_REQUEST', 'Invalid narrow operand: unknown channel general');
  });

  it.each([
    [{ anchor: 'sideways' }, 'Invalid anchor'],
    [{ num_before: -1 }, 'num_before is too small'],
    [{ num_before: 'x' }, 'num_before is not valid JSON'],
    [{ num_before: 3000, num_after: 3000 }, 'Too many messages requested (maximum 5000).'],
    [{ narrow: '{"operator":"is"}' }, 'narrow is not a list'],
    [{ narrow: '[{"operator":"color","operand":"red"}]' }, 'Invalid narrow operator: unknown operator color'],
    [{ narrow: '[{"operator":"is","operand":"purple"}]' }, "Invalid narrow operator: unknown 'is' operand purple"],
    [{ narrow: '[{"operator":"dm","operand":[999999]}]' }, 'Invalid narrow operand: unknown user 999999'],
    [{ narrow: 'not json' }, 'narrow is not valid JSON'],
  ])('rejects %j', async (query, msg) => {
    expectError(await get(member, query), 400, 'BAD_REQUEST', msg);
  });

  it('never shows another organization’s messages or users', async () => {
    const body = expectSuccess(
      await system.api.get<Page>('/messages', { anchor: 'newest', num_before: 100 }, { subdomain: 'read-elsewhere', auth: outsider }),
    );
    expect(body.messages).toEqual([]);
    const res = await system.api.get('/messages', { narrow: [{ operator: 'dm', operand: [member.id] }] } as never, { subdomain: 'read-elsewhere', auth: outsider });
    expectError(res, 400, 'BAD_REQUEST', `Invalid narrow operand: unknown user ${member.id}`);
  });

  it('fetches by message_ids, only those the caller may see', async () => {
    const body = await page(friend, { message_ids: [lunch[0], dm, secretIds[0]] });
    expect(body.messages.map((m) => m.id)).toEqual([lunch[0], dm]);
  });

  it('refuses callers without valid credentials', async () => {
    expectError(await system.api.get('/messages', {}, { subdomain: sub }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});

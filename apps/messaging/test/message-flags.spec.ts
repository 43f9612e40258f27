import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type TestUser,
} from '@teamchat/testing';

describe('POST /messages/flags', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let member: TestUser, friend: TestUser, outsider: TestUser, deactivated: TestUser;
  let channel: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const flags = (user: TestUser, form: Record<string, unknown>) => system.api.post('/messages/flags', form as never, as(user));
  const send = async (user: TestUser, form: Record<string, unknown>) => (expectSuccess(await system.api.post<{ id: number }>('/messages', form as never, as(user)))).id;
  const flagsOf = async (user: TestUser, messageId: number) =>
    (await system.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: user.id, messageId } } })).flags;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'flags' });
    subdomain = org.realm.subdomain;
    member = org.member;
    friend = await factory.user(org.realm, { fullName: 'Friend' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'flags-other' }), { role: Role.OWNER });
    channel = await factory.channel(org.realm, { name: 'flagged', subscribers: [member, friend] });
  });
  afterAll(() => system.stop());

  it('marks messages read, answers the ids that changed, and tells the caller’s clients', async () => {
    const first = await send(friend, { type: 'stream', to: channel.name, topic: 'news', content: 'one' });
    const second = await send(friend, { type: 'stream', to: channel.name, topic: 'news', content: 'two' });
    const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['update_message_flags'] });
    const sendersBefore = await flagsOf(friend, first);
    const body = expectSuccess(await flags(member, { messages: [first, second], op: 'add', flag: 'read' }));
    expectMatchesOpenApi('post', '/messages/flags', body);
    expect(body).toMatchObject({ messages: [first, second], ignored_because_not_subscribed_channels: [] });
    expect((await flagsOf(member, first)) & 1).toBe(1);
    expect(await flagsOf(friend, first)).toBe(sendersBefore); // only the caller's own rows change
    const [event] = await queue.waitFor('update_message_flags');
    expect(event).toMatchObject({ op: 'add', operation: 'add', flag: 'read', messages: [first, second], all: false });
    // Again: nothing changes, nothing is announced.
    expect(expectSuccess(await flags(member, { messages: [first], op: 'add', flag: 'read' })).messages).toEqual([]);
  });

  it('marks a message unread with the details clients need, and skips channels the caller left', async () => {
    const id = await send(friend, { type: 'stream', to: channel.name, topic: '', content: `hi @**${member.fullName}**` });
    const dm = await send(friend, { type: 'direct', to: JSON.stringify([member.id]), content: 'psst' });
    await flags(member, { messages: [id, dm], op: 'add', flag: 'read' });
    const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['update_message_flags'] });
    const body = expectSuccess(await flags(member, { messages: [id, dm], op: 'remove', flag: 'read' }));
    expect(body.messages).toEqual([id, dm]);
    const [event] = await queue.waitFor('update_message_flags');
    expect(event).toMatchObject({
      op: 'remove',
      flag: 'read',
      messages: [id, dm],
      message_details: {
        [id]: { type: 'stream', stream_id: channel.id, topic: 'general chat', unmuted_stream_msg: true, mentioned: true },
        [dm]: { type: 'private', user_ids: [friend.id] },
      },
    });
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: queue.received });

    const left = await factory.channel({ id: member.realmId }, { name: `left ${Date.now()}`, subscribers: [member, friend] });
    const old = await send(friend, { type: 'stream', to: left.name, topic: 't', content: 'before leaving' });
    await flags(member, { messages: [old], op: 'add', flag: 'read' });
    await system.db.subscription.updateMany({ where: { streamId: left.id, userId: member.id }, data: { active: false } });
    const skipped = expectSuccess(await flags(member, { messages: [old], op: 'remove', flag: 'read' }));
    expect(skipped).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [left.id] });
    expect((await flagsOf(member, old)) & 1).toBe(1);
  });

  it('stars and unstars', async () => {
    const id = await send(friend, { type: 'stream', to: channel.name, topic: 'stars', content: 'shiny' });
    expectSuccess(await flags(member, { messages: [id], op: 'add', flag: 'starred' }));
    expect((await flagsOf(member, id)) & 2).toBe(2);
    expectSuccess(await flags(member, { messages: [id], op: 'remove', flag: 'starred' }));
    expect((await flagsOf(member, id)) & 2).toBe(0);
  });

  it('refuses flags the server keeps, unknown flags and operations, and messages the caller does not have, changing nothing', async () => {
    const id = await send(friend, { type: 'stream', to: channel.name, topic: 'x', content: 'x' });
    const before = await flagsOf(member, id);
    expectError(await flags(member, { messages: [id], op: 'add', flag: 'mentioned' }), 400, 'BAD_REQUEST', "Flag not editable: 'mentioned'");
    expectError(await flags(member, { messages: [id], op: 'add', flag: 'shiny' }), 400, 'BAD_REQUEST', "Invalid flag: 'shiny'");
    expectError(await flags(member, { messages: [id], op: 'flip', flag: 'read' }), 400, 'BAD_REQUEST', 'Invalid op');
    expectError(await flags(member, { messages: [id, 999999], op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await flags(member, { messages: [id, 2 ** 40], op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    const secretDm = await send(friend, { type: 'direct', to: JSON.stringify([friend.id]), content: 'note to self' });
    expectError(await flags(member, { messages: [secretDm], op: 'add', flag: 'starred' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await flags(member, { messages: 'nope', op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'messages is not valid JSON');
    expectError(await system.api.post('/messages/flags', { op: 'add', flag: 'read' }, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'messages' argument", {
      var_name: 'messages',
    });
    expect(await flagsOf(member, id)).toBe(before);
    await expectCallersRefused((options) => system.api.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }, options), {
      subdomain,
      member,
      outsider,
      deactivated,
    });
  });

  describe('POST /mark_stream_as_read and POST /mark_all_as_read', () => {
    it('marks a channel’s messages read, and only that channel’s', async () => {
      const other = await factory.channel({ id: member.realmId }, { name: `other ${Date.now()}`, subscribers: [member, friend] });
      const here = await send(friend, { type: 'stream', to: channel.name, topic: 'bulk', content: 'here' });
      const there = await send(friend, { type: 'stream', to: other.name, topic: 'bulk', content: 'there' });
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['update_message_flags'] });
      const body = expectSuccess(await system.api.post('/mark_stream_as_read', { stream_id: channel.id }, as(member)));
      expectMatchesOpenApi('post', '/mark_stream_as_read', body);
      expect((await flagsOf(member, here)) & 1).toBe(1);
      expect((await flagsOf(member, there)) & 1).toBe(0);
      const [event] = await queue.waitFor('update_message_flags');
      expect(event).toMatchObject({ op: 'add', flag: 'read' });
      expect(event.messages as number[]).toContain(here);
      expect(event.messages as number[]).not.toContain(there);
      expectError(await system.api.post('/mark_stream_as_read', { stream_id: 999999 }, as(member)), 400, 'BAD_REQUEST', 'Invalid channel ID');
      await expectCallersRefused((options) => system.api.post('/mark_stream_as_read', { stream_id: channel.id }, options), { subdomain, member, outsider, deactivated });
    });

    it('marks everything read, answering complete', async () => {
      const one = await send(friend, { type: 'stream', to: channel.name, topic: 'all', content: 'a' });
      const two = await send(friend, { type: 'direct', to: JSON.stringify([member.id]), content: 'b' });
      const sendersBefore = await flagsOf(friend, one);
      const body = expectSuccess(await system.api.post('/mark_all_as_read', {}, as(member)));
      expectMatchesOpenApi('post', '/mark_all_as_read', body);
      expect(body.complete).toBe(true);
      expect((await flagsOf(member, one)) & 1).toBe(1);
      expect((await flagsOf(member, two)) & 1).toBe(1);
      expect(await flagsOf(friend, one)).toBe(sendersBefore); // only the caller's rows
      expect(await system.db.userMessage.count({ where: { userId: member.id, flags: { equals: 0 } } })).toBe(0);
      await expectCallersRefused((options) => system.api.post('/mark_all_as_read', {}, options), { subdomain, member, outsider, deactivated });
    });
  });
});

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
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const TYPING = 'event.presence.typing.v1';

/** An expected message; a function when it names data made in beforeAll. */
type Message = string | (() => string);
type Form = Record<string, FormValue>;

describe('POST /typing', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let host: string;
  let realmId: number;
  let member: TestUser, other: TestUser, third: TestUser, admin: TestUser, guest: TestUser;
  let deactivated: TestUser, quiet: TestUser, silent: TestUser, hidden: TestUser, bot: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  let general: { id: number }, secret: { id: number }, inner: { id: number }, archived: { id: number }, foreign: { id: number };
  let crowded: { id: number }, hundred: { id: number };
  let crowd: number[];

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const typing = (user: TestUser, form: Form, sub = subdomain) => system.api.post('/typing', form, as(user, sub));
  const shown = (user: TestUser) => ({ user_id: user.id, email: user.email });
  const channel = (streamId: number, topic = 'plans', extra: Form = {}): Form => ({ type: 'channel', op: 'start', stream_id: streamId, topic, ...extra });
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  /** The one typing event the request published. */
  const theEvent = async (): Promise<ClientEvent> => {
    const [event] = await events.waitFor<ClientEvent>(TYPING);
    expect(await events.settle(TYPING, 100)).toHaveLength(1);
    return event;
  };
  const expectNoEvent = async () => expect(await events.publishedByNow(TYPING)).toEqual([]);
  /** The body of a typing event as GET /events would serve it, checked against the reference. */
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  /** Users written straight to the store (no credentials), for crowds. */
  const massUsers = async (count: number, isActive = true): Promise<number[]> => {
    const tag = `crowd-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    await system.db.user.createMany({
      data: Array.from({ length: count }, (_, i) => ({ realmId, deliveryEmail: `${tag}-${i}@example.test`, fullName: `Crowd ${i}`, isActive })),
    });
    const rows = await system.db.user.findMany({ where: { deliveryEmail: { startsWith: tag } }, select: { id: true } });
    return sorted(rows.map((row) => row.id));
  };
  const subscribeAll = (ids: number[], streamId: number) =>
    system.db.subscription.createMany({ data: ids.map((userId) => ({ userId, streamId })) });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'typing' });
    ({ member, admin, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    host = `${subdomain}.testserver.local`;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    third = await factory.user(org.realm, { fullName: 'Third Member' });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    quiet = await factory.user(org.realm, { fullName: 'Quiet Member', settings: { receives_typing_notifications: false } });
    silent = await factory.user(org.realm, {
      fullName: 'Silent Member',
      settings: { send_private_typing_notifications: false, send_stream_typing_notifications: false },
    });
    // Their address is for administrators only: everyone is shown user<id>@<host>.
    hidden = await factory.user(org.realm, { fullName: 'Hidden Member', settings: { email_address_visibility: 3 } });
    bot = await factory.user(org.realm, { fullName: 'Helper Bot', isBot: true, botOwnerId: member.id });

    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, quiet, deactivated, admin, hidden, silent] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin, other] });
    inner = await factory.channel(org.realm, { name: 'inner', inviteOnly: true, subscribers: [member, guest] });
    archived = await factory.channel(org.realm, { name: 'old', subscribers: [member, other] });
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });

    // 101 active subscribers: too many for typing notifications. 100 (and two deactivated): not.
    crowd = await massUsers(100);
    crowded = await factory.channel(org.realm, { name: 'crowded', subscribers: [member] });
    await subscribeAll(crowd, crowded.id);
    hundred = await factory.channel(org.realm, { name: 'hundred', subscribers: [member] });
    await subscribeAll([...crowd.slice(0, 99), ...(await massUsers(2, false))], hundred.id);

    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreign = await factory.channel(elsewhere, { name: 'general', subscribers: [outsider] });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('direct', () => {
    it('tells the other participant, naming everyone with the sender last', async () => {
      const body = expectSuccess(await typing(member, { type: 'direct', op: 'start', to: [other.id] }));
      expectMatchesOpenApi('post', '/typing', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      const event = await theEvent();
      expect(event).toEqual({
        realmId,
        users: [other.id],
        event: { type: 'typing', op: 'start', message_type: 'direct', sender: shown(member), recipients: [shown(other), shown(member)] },
      });
      expectEventMatchesOpenApi(event.event);
    });

    it('announces stop the same way, and is direct when no type is given', async () => {
      expectSuccess(await typing(member, { op: 'stop', to: [other.id] }));
      const event = await theEvent();
      expect(event.event).toEqual({ type: 'typing', op: 'stop', message_type: 'direct', sender: shown(member), recipients: [shown(other), shown(member)] });
      expect(event.users).toEqual([other.id]);
      expectEventMatchesOpenApi(event.event);
    });

    it('tells every other member of a group conversation, in the order given, each once', async () => {
      expectSuccess(await typing(member, { type: 'direct', op: 'start', to: [third.id, other.id, third.id] }));
      const event = await theEvent();
      expect(event.event.recipients).toEqual([shown(third), shown(other), shown(member)]);
      expect(event.users).toEqual(sorted([other.id, third.id]));
    });

    it('keeps the sender where the list puts them, and never tells the sender', async () => {
      expectSuccess(await typing(member, { op: 'start', to: [member.id, other.id] }));
      const event = await theEvent();
      expect(event.event.recipients).toEqual([shown(member), shown(other)]);
      expect(event.users).toEqual([other.id]);
    });

    it('tells nobody when typing to oneself', async () => {
      expectSuccess(await typing(member, { op: 'start', to: [member.id] }));
      await expectNoEvent();
    });

    it('names deactivated participants and those who turned typing notifications off, but tells neither', async () => {
      expectSuccess(await typing(member, { op: 'start', to: [deactivated.id, quiet.id, other.id] }));
      const event = await theEvent();
      expect(event.event.recipients).toEqual([shown(deactivated), shown(quiet), shown(other), shown(member)]);
      expect(event.users).toEqual([other.id]);
    });

    it('tells nobody when no other participant can hear it', async () => {
      expectSuccess(await typing(member, { op: 'start', to: [deactivated.id, quiet.id] }));
      await expectNoEvent();
    });

    it('follows the organization’s default for who receives typing notifications', async () => {
      const org = await factory.organization({ subdomain: 'hushed' });
      await system.db.realm.update({ where: { id: org.id }, data: { userSettingsDefaults: { receives_typing_notifications: false } } });
      const [writer, reader, keen] = [
        await factory.user(org),
        await factory.user(org),
        await factory.user(org, { settings: { receives_typing_notifications: true } }),
      ];
      expectSuccess(await typing(writer, { op: 'start', to: [reader.id, keen.id] }, org.subdomain));
      expect((await theEvent()).users).toEqual([keen.id]);
    });

    it('shows everyone by the address the API shows for them', async () => {
      const dummy = `user${hidden.id}@${host}`;
      expectSuccess(await typing(hidden, { op: 'start', to: [other.id] }));
      let event = await theEvent();
      expect(event.event.sender).toEqual({ user_id: hidden.id, email: dummy });
      expect(event.event.recipients).toEqual([shown(other), { user_id: hidden.id, email: dummy }]);
      events.clear();
      expectSuccess(await typing(member, { op: 'start', to: [hidden.id] }));
      event = await theEvent();
      expect(event.event.recipients).toEqual([{ user_id: hidden.id, email: dummy }, shown(member)]);
      expect(event.users).toEqual([hidden.id]);
    });

    it('includes bots, and lets bots and guests type', async () => {
      expectSuccess(await typing(member, { op: 'start', to: [bot.id] }));
      expect((await theEvent()).users).toEqual([bot.id]);
      events.clear();
      expectSuccess(await typing(bot, { op: 'start', to: [member.id] }));
      expect((await theEvent()).users).toEqual([member.id]);
      events.clear();
      expectSuccess(await typing(guest, { op: 'start', to: [member.id] }));
      expect((await theEvent()).users).toEqual([member.id]);
    });

    it('ignores stream_id and topic', async () => {
      expectSuccess(await typing(member, { type: 'direct', op: 'start', to: [other.id], stream_id: 999999, topic: 'x' }));
      const event = await theEvent();
      expect(event.event).not.toHaveProperty('stream_id');
      expect(event.event).not.toHaveProperty('topic');
    });

    it('reports unsupported parameters', async () => {
      const res = await typing(member, { op: 'start', to: [other.id], colour: 'red' });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['colour']);
      await theEvent();
    });

    it('lets a user who turned off channel typing notifications still send direct ones', async () => {
      await factory.userSettings(third, { send_stream_typing_notifications: false });
      expectSuccess(await typing(third, { op: 'start', to: [other.id] }));
      expect((await theEvent()).users).toEqual([other.id]);
      await factory.userSettings(third, { send_stream_typing_notifications: true });
    });
  });

  describe('channel', () => {
    it('tells the channel’s subscribers who receive typing notifications, not the sender', async () => {
      const body = expectSuccess(await typing(member, channel(general.id)));
      expectMatchesOpenApi('post', '/typing', body);
      const event = await theEvent();
      expect(event).toEqual({
        realmId,
        users: sorted([other.id, admin.id, hidden.id, silent.id]),
        event: { type: 'typing', op: 'start', message_type: 'stream', sender: shown(member), stream_id: general.id, topic: 'plans' },
      });
      expectEventMatchesOpenApi(event.event);
    });

    it('accepts stream as the type too, and stop', async () => {
      expectSuccess(await typing(member, channel(general.id, 'plans', { type: 'stream', op: 'stop' })));
      const event = await theEvent();
      expect(event.event).toEqual({ type: 'typing', op: 'stop', message_type: 'stream', sender: shown(member), stream_id: general.id, topic: 'plans' });
      expectEventMatchesOpenApi(event.event);
    });

    it('lets a non-subscriber type in a public channel', async () => {
      expectSuccess(await typing(third, channel(general.id)));
      expect((await theEvent()).users).toEqual(sorted([member.id, other.id, admin.id, hidden.id, silent.id]));
    });

    it('lets subscribers of a private channel type there, guests included', async () => {
      expectSuccess(await typing(guest, channel(inner.id)));
      expect((await theEvent()).users).toEqual([member.id]);
      events.clear();
      expectSuccess(await typing(other, channel(secret.id)));
      expect((await theEvent()).users).toEqual([admin.id]);
    });

    it.each([
      ['(no topic)', ''],
      ['general chat', ''],
      ['', ''],
      ['  spaced out  ', 'spaced out'],
      ['General Chat', 'General Chat'],
    ])('shows the topic %j as %j', async (topic, shownTopic) => {
      expectSuccess(await typing(member, channel(general.id, topic)));
      expect((await theEvent()).event.topic).toBe(shownTopic);
    });

    it('takes the topic as subject too, and ignores to', async () => {
      expectSuccess(await typing(member, { type: 'stream', op: 'start', stream_id: general.id, subject: 'legacy', to: [999999] }));
      const event = await theEvent();
      expect(event.event.topic).toBe('legacy');
      expect(event.event).not.toHaveProperty('recipients');
    });

    it('tells nobody in a channel with more than 100 active subscribers', async () => {
      expectSuccess(await typing(member, channel(crowded.id)));
      await expectNoEvent();
    });

    it('still tells a channel of exactly 100 active subscribers (deactivated ones do not count)', async () => {
      expectSuccess(await typing(member, channel(hundred.id)));
      expect((await theEvent()).users).toEqual(crowd.slice(0, 99));
    });

    it('lets a user who turned off direct typing notifications still send channel ones', async () => {
      await factory.userSettings(third, { send_private_typing_notifications: false });
      expectSuccess(await typing(third, channel(general.id)));
      await theEvent();
      await factory.userSettings(third, { send_private_typing_notifications: true });
    });
  });

  it.each<[string, () => Form, Message]>([
    ['the legacy private type', () => ({ type: 'private', op: 'start', to: [other.id] }), 'Invalid type'],
    ['an unknown type', () => ({ type: 'huddle', op: 'start', to: [other.id] }), 'Invalid type'],
    ['an unknown op', () => ({ op: 'begin', to: [other.id] }), 'Invalid op'],
    ['a direct notification without to', () => ({ type: 'direct', op: 'start' }), "Missing 'to' argument"],
    ['a null to', () => ({ op: 'start', to: null as unknown as FormValue }), "Missing 'to' argument"],
    ['an empty to', () => ({ op: 'start', to: [] }), "Empty 'to' list"],
    ['a to that is not JSON', () => ({ op: 'start', to: 'other' }), 'to is not valid JSON'],
    ['a to that is not a list', () => ({ op: 'start', to: 5 }), 'to is not a list'],
    ['a textual ID in to', () => ({ op: 'start', to: [String(other.id)] }), 'to[0] is not an integer'],
    ['an unknown user', () => ({ op: 'start', to: [other.id, 999999] }), 'Invalid user ID 999999'],
    ['a user ID past the column range', () => ({ op: 'start', to: [2 ** 40] }), `Invalid user ID ${2 ** 40}`],
    ['a user ID of zero', () => ({ op: 'start', to: [0] }), 'Invalid user ID 0'],
    ['another organization’s user', () => ({ op: 'start', to: [outsider.id] }), () => `Invalid user ID ${outsider.id}`],
    ['a channel notification without stream_id', () => ({ type: 'channel', op: 'start', topic: 'plans' }), "Missing 'stream_id' argument"],
    ['a null stream_id', () => ({ type: 'stream', op: 'start', stream_id: null as unknown as FormValue, topic: 'x' }), "Missing 'stream_id' argument"],
    ['a stream_id that is not a number', () => ({ type: 'stream', op: 'start', stream_id: 'general', topic: 'x' }), 'stream_id is not valid JSON'],
    ['a channel notification without topic', () => ({ type: 'channel', op: 'start', stream_id: general.id }), 'Missing topic'],
    ['a missing topic before an unknown channel', () => ({ type: 'stream', op: 'start', stream_id: 999999 }), 'Missing topic'],
    ['an unknown channel', () => channel(999999), 'Invalid channel ID'],
    ['a channel ID of zero', () => channel(0), 'Invalid channel ID'],
    ['a channel ID past the column range', () => channel(2 ** 40), 'Invalid channel ID'],
    ['a private channel the sender is not in', () => channel(secret.id), 'Invalid channel ID'],
    ['an archived channel', () => channel(archived.id), 'Invalid channel ID'],
    ['another organization’s channel', () => channel(foreign.id), 'Invalid channel ID'],
  ])('refuses %s and tells nobody', async (_name, form, msg) => {
    const res = await typing(member, form());
    expectError(res, 400, 'BAD_REQUEST', typeof msg === 'function' ? msg() : msg);
    expectNoInternals(res);
    await expectNoEvent();
  });

  it('refuses a guest a public channel they are not subscribed to', async () => {
    expectError(await typing(guest, channel(general.id)), 400, 'BAD_REQUEST', 'Invalid channel ID');
    await expectNoEvent();
  });

  it('refuses senders who turned typing notifications off, before looking at the addressees', async () => {
    expectError(await typing(silent, { op: 'start', to: [other.id] }), 400, 'BAD_REQUEST', 'User has disabled typing notifications for direct messages');
    expectError(await typing(silent, { op: 'start', to: [999999] }), 400, 'BAD_REQUEST', 'User has disabled typing notifications for direct messages');
    expectError(await typing(silent, channel(general.id)), 400, 'BAD_REQUEST', 'User has disabled typing notifications for channel messages');
    expectError(await typing(silent, channel(secret.id)), 400, 'BAD_REQUEST', 'User has disabled typing notifications for channel messages');
    // The shape of the request is checked first.
    expectError(await typing(silent, { op: 'start', to: [] }), 400, 'BAD_REQUEST', "Empty 'to' list");
    expectError(await typing(silent, { type: 'stream', op: 'start', stream_id: general.id }), 400, 'BAD_REQUEST', 'Missing topic');
    await expectNoEvent();
  });

  it('requires op', async () => {
    expectError(await typing(member, { to: [other.id] }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' });
    await expectNoEvent();
  });

  it('refuses anonymous, wrongly keyed, foreign and deactivated callers', async () => {
    await expectCallersRefused((options) => system.api.post('/typing', { op: 'start', to: [other.id] }, options), {
      subdomain,
      member,
      outsider,
      deactivated,
    });
    await expectNoEvent();
  });

  describe('through the clients’ event queues', () => {
    const register = (user: TestUser, capabilities: Record<string, boolean> = {}) =>
      EventQueueClient.register(system.api, as(user), { event_types: ['typing'], client_capabilities: capabilities });

    it('reaches the other participants’ queues, not the sender’s', async () => {
      const [otherQueue, senderQueue] = [await register(other), await register(member)];
      expectSuccess(await typing(member, { op: 'start', to: [other.id] }));
      const [event] = await otherQueue.waitFor('typing');
      expect(event).toEqual({
        id: 0,
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: shown(member),
        recipients: [shown(other), shown(member)],
      });
      expect(await senderQueue.settle()).toEqual([]);
    });

    it('reaches only queues that declared stream_typing_notifications with channel typing', async () => {
      const [capable, plain] = [await register(other, { stream_typing_notifications: true }), await register(admin)];
      expectSuccess(await typing(member, channel(general.id, '(no topic)')));
      const [event] = await capable.waitFor('typing');
      expect(event).toMatchObject({ type: 'typing', message_type: 'stream', stream_id: general.id, sender: shown(member) });
      expect(await plain.settle()).toEqual([]);
    });
  });

  it('keeps organizations apart: an outsider types only in their own', async () => {
    expectSuccess(await typing(outsider, channel(foreign.id), outsiderSubdomain));
    await expectNoEvent();
    expectError(await typing(outsider, channel(general.id), outsiderSubdomain), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await typing(outsider, { op: 'start', to: [member.id] }, outsiderSubdomain), 400, 'BAD_REQUEST', `Invalid user ID ${member.id}`);
  });
});

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
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const FLAGS_CHANGED = 'event.messaging.message_flags_changed.v1';

interface Topic {
  name: string;
  max_id: number;
}

describe('topics', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, other: TestUser, bot: TestUser, late: TestUser;
  let deactivated: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  /** general: public, topics Alpha/alpha, beta and the empty one. */
  let general: { id: number };
  /** secret: private with protected history; member joined after "before", the bot after "middle". */
  let secret: { id: number };
  /** shared: private with shared history; member joined after its messages. */
  let shared: { id: number };
  let adminsOnly: { id: number }, archived: { id: number }, empty: { id: number }, foreign: { id: number };
  let guestRoom: { id: number };
  const ids: Record<string, number[]> = {};

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const topicsOf = (user: TestUser, streamId: number | string, query: Record<string, unknown> = {}, sub = subdomain) =>
    system.api.get<{ topics: Topic[] }>(`/users/me/${streamId}/topics`, query as never, as(user, sub));
  const markRead = (user: TestUser, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post('/mark_topic_as_read', form as never, as(user, sub));
  /** Every UserMessage row, for "nothing changed" checks. */
  const allFlags = () => system.db.userMessage.findMany({ orderBy: [{ userId: 'asc' }, { messageId: 'asc' }] });
  const flagsOf = async ({ id: userId }: { id: number }, messageIds: number[]) =>
    (await system.db.userMessage.findMany({ where: { userId, messageId: { in: messageIds } }, orderBy: { messageId: 'asc' } })).map(
      (row) => row.flags,
    );
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'topics' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    late = await factory.user(org.realm, { fullName: 'Late Member' });
    bot = await factory.user(org.realm, { fullName: 'Helper Bot', isBot: true, botOwnerId: member.id });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });

    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, admin] });
    ids.alpha = await factory.channelMessages(other, general, 'Alpha', 2);
    ids.beta = await factory.channelMessages(other, general, 'beta', 1);
    ids.empty = await factory.channelMessages(other, general, '', 1);
    ids.alphaLower = await factory.channelMessages(member, general, 'alpha', 1);

    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin] });
    ids.before = await factory.channelMessages(admin, secret, 'before', 1);
    await factory.subscribe(member, secret);
    ids.middle = await factory.channelMessages(admin, secret, 'middle', 1);
    await factory.subscribe(bot, secret);
    ids.after = await factory.channelMessages(admin, secret, 'after', 1);

    shared = await factory.channel(org.realm, {
      name: 'shared',
      inviteOnly: true,
      historyPublicToSubscribers: true,
      subscribers: [admin],
    });
    ids.history = await factory.channelMessages(admin, shared, 'history', 2);
    await factory.subscribe(member, shared);

    adminsOnly = await factory.channel(org.realm, { name: 'admins only', inviteOnly: true, subscribers: [owner] });
    await factory.channelMessages(owner, adminsOnly, 'hidden', 1);
    archived = await factory.channel(org.realm, { name: 'old', subscribers: [member] });
    await factory.channelMessages(member, archived, 'old news', 1);
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });
    empty = await factory.channel(org.realm, { name: 'quiet', subscribers: [member] });
    guestRoom = await factory.channel(org.realm, { name: 'guest room', subscribers: [guest, member] });
    ids.guest = await factory.channelMessages(member, guestRoom, 'welcome', 1);

    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreign = await factory.channel(elsewhere, { name: 'general', subscribers: [outsider] });
    await factory.channelMessages(outsider, foreign, 'abroad', 1);
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('GET /users/me/{stream_id}/topics', () => {
    it('lists one entry per topic, case-insensitively, newest first, named as its newest message names it', async () => {
      const body = expectSuccess(await topicsOf(member, general.id));
      expectMatchesOpenApi('get', '/users/me/{stream_id}/topics', body);
      expect(body).toEqual({
        result: 'success',
        msg: '',
        topics: [
          { name: 'alpha', max_id: ids.alphaLower[0] },
          { name: 'general chat', max_id: ids.empty[0] },
          { name: 'beta', max_id: ids.beta[0] },
        ],
      });
    });

    it('shows the empty topic as "" when the client allows it', async () => {
      const body = expectSuccess(await topicsOf(member, general.id, { allow_empty_topic_name: true }));
      expectMatchesOpenApi('get', '/users/me/{stream_id}/topics', body);
      expect(body.topics.map((t) => t.name)).toEqual(['alpha', '', 'beta']);
      const explicit = expectSuccess(await topicsOf(member, general.id, { allow_empty_topic_name: false }));
      expect(explicit.topics.map((t) => t.name)).toEqual(['alpha', 'general chat', 'beta']);
    });

    it('lets anyone who may read a public channel list it, subscribed or not', async () => {
      const body = expectSuccess(await topicsOf(late, general.id));
      expect(body.topics.map((t) => t.name)).toEqual(['alpha', 'general chat', 'beta']);
    });

    it('with protected history lists only topics of messages the caller may see', async () => {
      const asAdmin = expectSuccess(await topicsOf(admin, secret.id));
      expect(asAdmin.topics).toEqual([
        { name: 'after', max_id: ids.after[0] },
        { name: 'middle', max_id: ids.middle[0] },
        { name: 'before', max_id: ids.before[0] },
      ]);
      const asMember = expectSuccess(await topicsOf(member, secret.id));
      expect(asMember.topics).toEqual([
        { name: 'after', max_id: ids.after[0] },
        { name: 'middle', max_id: ids.middle[0] },
      ]);
    });

    it('gives a bot what came after its own subscription, not its owner’s', async () => {
      const body = expectSuccess(await topicsOf(bot, secret.id));
      expectMatchesOpenApi('get', '/users/me/{stream_id}/topics', body);
      expect(body.topics).toEqual([{ name: 'after', max_id: ids.after[0] }]);
    });

    it('with protected history still lists a topic of an older message the caller received', async () => {
      // As for someone who was subscribed, left, and came back: the old message stays theirs.
      const vault = await factory.channel({ id: realmId }, { name: 'vault', inviteOnly: true, subscribers: [admin] });
      const [kept] = await factory.channelMessages(admin, vault, 'kept', 1);
      await factory.channelMessages(admin, vault, 'unseen', 1);
      await system.db.userMessage.create({ data: { userId: late.id, messageId: kept, flags: 0 } });
      await factory.subscribe(late, vault);
      const [fresh] = await factory.channelMessages(admin, vault, 'fresh', 1);
      expect(expectSuccess(await topicsOf(late, vault.id)).topics).toEqual([
        { name: 'fresh', max_id: fresh },
        { name: 'kept', max_id: kept },
      ]);
    });

    it('with shared history lists every topic to a later subscriber', async () => {
      const body = expectSuccess(await topicsOf(member, shared.id));
      expect(body.topics).toEqual([{ name: 'history', max_id: ids.history[1] }]);
    });

    it('lists nothing for a channel without messages', async () => {
      expect(expectSuccess(await topicsOf(member, empty.id)).topics).toEqual([]);
    });

    it('lets a guest list a channel they are subscribed to, and only that', async () => {
      expect(expectSuccess(await topicsOf(guest, guestRoom.id)).topics).toEqual([{ name: 'welcome', max_id: ids.guest[0] }]);
      expectError(await topicsOf(guest, general.id), 400, 'BAD_REQUEST', 'Invalid channel ID');
    });

    it.each([
      ['an unknown channel', () => 987654],
      ['channel 0', () => 0],
      ['an id beyond the integer range', () => 2147483648],
      ['a private channel the caller is not subscribed to', () => adminsOnly.id],
      ['an archived channel', () => archived.id],
      ['another organization’s channel', () => foreign.id],
    ])('refuses %s as an invalid channel', async (_what, id) => {
      const res = await topicsOf(member, id());
      expectError(res, 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectNoInternals(res);
    });

    it('refuses a private channel to an administrator who is not subscribed', async () => {
      expectError(await topicsOf(admin, adminsOnly.id), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expect(expectSuccess(await topicsOf(owner, adminsOnly.id)).topics.map((t) => t.name)).toEqual(['hidden']);
    });

    it.each(['abc', '1.5', 'true', '%20'])('answers a stream id of %j in the path as an unknown route', async (segment) => {
      expectError(await topicsOf(member, segment), 404, 'NOT_FOUND', 'Not Found');
    });

    it.each([
      [{ allow_empty_topic_name: 'yes' }, 'allow_empty_topic_name is not valid JSON'],
      [{ allow_empty_topic_name: 1 }, 'allow_empty_topic_name is not a boolean'],
      [{ allow_empty_topic_name: '"true"' }, 'allow_empty_topic_name is not a boolean'],
    ])('rejects bad input %j', async (query, msg) => {
      expectError(await topicsOf(member, general.id, query), 400, 'BAD_REQUEST', msg);
    });

    it('reports parameters it does not support, a stream_id in the query included', async () => {
      const body = expectSuccess(await topicsOf(member, general.id, { stream_id: shared.id, colour: 'red' }));
      expect(body).toMatchObject({ ignored_parameters_unsupported: ['colour', 'stream_id'] });
      expect(body.topics.map((t) => t.name)).toEqual(['alpha', 'general chat', 'beta']);
    });

    it('refuses callers without valid credentials', async () => {
      const path = `/users/me/${general.id}/topics`;
      await expectCallersRefused((options) => system.api.get(path, {}, options), { subdomain, member, outsider, deactivated });
    });

    it('keeps organizations apart: the outsider sees their own channel, never ours', async () => {
      expect(expectSuccess(await topicsOf(outsider, foreign.id, {}, outsiderSubdomain)).topics.map((t) => t.name)).toEqual(['abroad']);
      expectError(await topicsOf(outsider, general.id, {}, outsiderSubdomain), 400, 'BAD_REQUEST', 'Invalid channel ID');
    });
  });

  describe('POST /mark_topic_as_read', () => {
    let room: { id: number };
    const topicIds: Record<string, number[]> = {};

    beforeAll(async () => {
      room = await factory.channel({ id: realmId }, { name: 'reading room', subscribers: [member, other, admin] });
      topicIds.news = await factory.channelMessages(other, room, 'News', 3);
      topicIds.newsCase = await factory.channelMessages(other, room, 'NEWS', 1);
      topicIds.sport = await factory.channelMessages(other, room, 'sport', 2);
      topicIds.empty = await factory.channelMessages(other, room, '', 2);
      topicIds.mine = await factory.channelMessages(member, room, 'mine', 1);
      // One news message is already starred by the member, one already read.
      await system.db.userMessage.update({
        where: { userId_messageId: { userId: member.id, messageId: topicIds.news[0] } },
        data: { flags: 2 },
      });
      await system.db.userMessage.update({
        where: { userId_messageId: { userId: member.id, messageId: topicIds.news[1] } },
        data: { flags: 1 },
      });
    });

    it('marks the caller’s unread messages of the topic read, case-insensitively, and tells the caller', async () => {
      const before = await allFlags();
      const res = await markRead(member, { stream_id: room.id, topic_name: 'news' });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/mark_topic_as_read', body);
      expect(body).toEqual({ result: 'success', msg: '' });

      const news = [...topicIds.news, ...topicIds.newsCase];
      expect(await flagsOf(member, news)).toEqual([3, 1, 1, 1]);
      // Other topics, and other users' rows, are untouched.
      const after = await allFlags();
      const changed = after.filter((row, i) => row.flags !== before[i].flags);
      expect(changed.map((row) => [row.userId, row.messageId])).toEqual(
        [topicIds.news[0], topicIds.news[2], topicIds.newsCase[0]].map((id) => [member.id, id]),
      );

      const [event] = await events.waitFor<ClientEvent>(FLAGS_CHANGED);
      expect(event).toEqual({
        realmId,
        users: [member.id],
        event: {
          type: 'update_message_flags',
          op: 'add',
          operation: 'add',
          flag: 'read',
          messages: [topicIds.news[0], topicIds.news[2], topicIds.newsCase[0]],
          all: false,
        },
      });
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(FLAGS_CHANGED)).toHaveLength(1);
    });

    it('succeeds without an event when nothing in the topic is unread', async () => {
      expectSuccess(await markRead(member, { stream_id: room.id, topic_name: 'NEWS' }));
      expect(await events.publishedByNow(FLAGS_CHANGED)).toEqual([]);
      expectSuccess(await markRead(member, { stream_id: room.id, topic_name: 'mine' }));
      expect(await events.publishedByNow(FLAGS_CHANGED)).toEqual([]);
    });

    it.each(['general chat', '(no topic)'])('takes %j for the empty topic', async (name) => {
      await system.db.userMessage.updateMany({ where: { userId: other.id, messageId: { in: topicIds.empty } }, data: { flags: 0 } });
      expectSuccess(await markRead(other, { stream_id: room.id, topic_name: name }));
      expect(await flagsOf(other, topicIds.empty)).toEqual([1, 1]);
      expect(await flagsOf(other, topicIds.sport)).toEqual([1, 1]); // the sender's own, read from the start
      const [event] = await events.waitFor<ClientEvent>(FLAGS_CHANGED);
      expect(event.event.messages).toEqual(topicIds.empty);
      expect(event.users).toEqual([other.id]);
    });

    it('marks the empty topic when given ""', async () => {
      expectSuccess(await markRead(member, { stream_id: room.id, topic_name: '' }));
      expect(await flagsOf(member, topicIds.empty)).toEqual([1, 1]);
      expect(await flagsOf(member, topicIds.sport)).toEqual([0, 0]);
    });

    it('refuses a topic the caller received no message of, and changes nothing', async () => {
      const before = await allFlags();
      expectError(await markRead(member, { stream_id: room.id, topic_name: 'nothing here' }), 400, 'BAD_REQUEST', "No such topic 'nothing here'");
      // `late` may read the public channel but received none of its messages.
      expectError(await markRead(late, { stream_id: room.id, topic_name: 'sport' }), 400, 'BAD_REQUEST', "No such topic 'sport'");
      expectError(await markRead(member, { stream_id: empty.id, topic_name: 'general chat' }), 400, 'BAD_REQUEST', "No such topic ''");
      expect(await allFlags()).toEqual(before);
      expect(await events.publishedByNow(FLAGS_CHANGED)).toEqual([]);
    });

    it.each([
      ['an unknown channel', () => 987654],
      ['a negative id', () => -1],
      ['a private channel the caller is not subscribed to', () => adminsOnly.id],
      ['an archived channel', () => archived.id],
      ['another organization’s channel', () => foreign.id],
    ])('refuses %s as an invalid channel', async (_what, id) => {
      const before = await allFlags();
      expectError(await markRead(member, { stream_id: id(), topic_name: 'hidden' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expect(await allFlags()).toEqual(before);
    });

    it.each([
      [{ topic_name: 'news' }, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", { var_name: 'stream_id' }],
      [{ stream_id: 1 }, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", { var_name: 'topic_name' }],
      [{ stream_id: 'abc', topic_name: 'news' }, 'BAD_REQUEST', 'stream_id is not valid JSON', {}],
      [{ stream_id: '"1"', topic_name: 'news' }, 'BAD_REQUEST', 'stream_id is not an integer', {}],
      [{ stream_id: 1.5, topic_name: 'news' }, 'BAD_REQUEST', 'stream_id is not an integer', {}],
      [{ stream_id: [1], topic_name: 'news' }, 'BAD_REQUEST', 'stream_id is not an integer', {}],
      [{ stream_id: 1, topic_name: 'ne\u0000ws' }, 'BAD_REQUEST', 'topic_name must not contain null bytes', {}],
    ])('rejects bad input %j', async (form, code, msg, extra) => {
      const before = await allFlags();
      const res = await markRead(member, form);
      expectError(res, 400, code, msg, extra);
      expectNoInternals(res);
      expect(await allFlags()).toEqual(before);
    });

    it('accepts multipart bodies and reports unsupported parameters', async () => {
      const body = expectSuccess(
        await system.api.post('/mark_topic_as_read', { stream_id: room.id, topic_name: 'sport', flag: 'read' }, { ...as(member), multipart: true }),
      );
      expect(body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['flag'] });
      expect(await flagsOf(member, topicIds.sport)).toEqual([1, 1]);
    });

    it('refuses callers without valid credentials', async () => {
      const form = { stream_id: String(room.id), topic_name: 'news' };
      await expectCallersRefused((options) => system.api.post('/mark_topic_as_read', form, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });
});

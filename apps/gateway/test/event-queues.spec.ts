import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type ApiClient,
  type QueueEvent,
  type TestUser,
} from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { Redis } from 'ioredis';

/**
 * Event queues with two gateway replicas running at once: any replica serves any queue, a
 * long-poll on one is woken by an append on the other, and ids only ever increase.
 */
describe('event queues (POST /register, GET and DELETE /events)', () => {
  let system: TestSystem;
  let factory: Factory;
  let first: ApiClient, second: ApiClient;
  let subdomain: string;
  let alice: TestUser, bob: TestUser, carol: TestUser, guest: TestUser, deactivated: TestUser, outsider: TestUser;
  let realmId: number;
  let outsiderSubdomain: string;
  let general: { id: number; name: string }, random: { id: number; name: string };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const register = (user: TestUser, params: Record<string, unknown> = {}, api = first) =>
    EventQueueClient.register(api, as(user), params as never);
  const send = (user: TestUser, params: Record<string, unknown>) =>
    first.post<{ id: number }>('/messages', params as never, as(user)).then((res) => expectSuccess(res).id);
  const toChannel = (user: TestUser, channel: { name: string }, content: string, topic = 'lunch', extra: Record<string, unknown> = {}) =>
    send(user, { type: 'stream', to: channel.name, topic, content, ...extra });
  const messageIds = (events: QueueEvent[]) =>
    events.filter((event) => event.type === 'message').map((event) => (event.message as { id: number }).id);

  beforeAll(async () => {
    system = await TestSystem.start({ gateways: 2, env: { EVENT_HEARTBEAT_SECONDS: '4' } });
    factory = new Factory(system.db);
    first = system.apiVia(0);
    second = system.apiVia(1);
    const realm = await factory.organization();
    subdomain = realm.subdomain;
    alice = await factory.user(realm, { fullName: 'Alice' });
    bob = await factory.user(realm, { fullName: 'Bob' });
    carol = await factory.user(realm, { fullName: 'Carol', role: Role.ADMINISTRATOR });
    guest = await factory.user(realm, { fullName: 'Gus', role: Role.GUEST });
    realmId = realm.id;
    deactivated = await factory.user(realm, { isActive: false });
    general = await factory.channel(realm, { name: 'general', subscribers: [alice, bob, carol] });
    random = await factory.channel(realm, { name: 'random', subscribers: [alice, bob] });
    const other = await factory.organization();
    outsiderSubdomain = other.subdomain;
    outsider = await factory.user(other);
  }, 60000);

  afterAll(() => system?.stop());

  describe('POST /register', () => {
    it('creates a queue and returns its id, last_event_id -1 and the server constants', async () => {
      const res = await first.post('/register', {}, as(alice));
      const body = expectSuccess(res);
      expect(body).toMatchObject({
        queue_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        last_event_id: -1,
        zulip_feature_level: 420,
        zulip_version: '11.0',
        realm_empty_topic_display_name: 'general chat',
        max_message_length: 10000,
        max_topic_length: 60,
        max_channel_folder_name_length: 60,
        max_channel_folder_description_length: 1024,
        max_file_upload_size_mib: 100,
        server_typing_started_wait_period_milliseconds: 30000,
        server_typing_stopped_wait_period_milliseconds: 12000,
        server_typing_started_expiry_period_milliseconds: 45000,
        event_queue_longpoll_timeout_seconds: 90,
        realm_name: 'Test organization',
        realm_url: `http://${subdomain}.testserver.local`,
      });
    });

    it('leaves the realm constants out when fetch_event_types does not ask for them', async () => {
      const body = expectSuccess(await first.post('/register', { fetch_event_types: ['message'] }, as(alice)));
      expect(body).toHaveProperty('queue_id');
      expect(body).toHaveProperty('zulip_feature_level', 420);
      expect(body).not.toHaveProperty('max_message_length');
      expect(body).not.toHaveProperty('realm_name');
    });

    it('refuses bad parameters with Zulip errors and makes no queue', async () => {
      const redis = new Redis(system.env.REDIS_URL);
      const queueKeys = () => redis.keys(`${system.env.REDIS_KEY_PREFIX}eq:{p*}:q:*`);
      const before = (await queueKeys()).sort();
      expectError(await first.post('/register', { event_types: 'message' }, as(alice)), 400, 'BAD_REQUEST', 'event_types is not valid JSON');
      expectError(await first.post('/register', { apply_markdown: 'maybe' }, as(alice)), 400, 'BAD_REQUEST', 'apply_markdown is not valid JSON');
      expectError(await first.post('/register', { narrow: '{"a":1}' }, as(alice)), 400, 'BAD_REQUEST', 'narrow is not a list');
      expectError(await first.post('/register', { narrow: [['search', 'x']] }, as(alice)), 400, 'BAD_REQUEST', 'Operator search not supported.');
      expectError(await first.post('/register', { narrow: [['is', 'followed']] }, as(alice)), 400, 'BAD_REQUEST', 'Operand followed not supported.');
      expectError(
        await first.post('/register', { client_capabilities: '{"stream_typing_notifications":"yes"}' }, as(alice)),
        400,
        'BAD_REQUEST',
        'client_capabilities["stream_typing_notifications"] is not a boolean',
      );
      expect((await queueKeys()).sort()).toEqual(before);
      redis.disconnect();
    });

    it('refuses callers who are not logged in to the organization', async () => {
      await expectCallersRefused((options) => first.post('/register', {}, options), {
        subdomain,
        member: alice,
        outsider,
        deactivated,
      });
    });
  });

  describe('any replica serves any queue', () => {
    it('serves a queue registered through one gateway from the other, with the message and its flags', async () => {
      const queue = await register(bob, {}, first);
      const id = await toChannel(alice, general, 'hello @**Bob**');
      const events = await queue.via(second).waitFor('message');
      expect(events).toEqual([
        expect.objectContaining({
          type: 'message',
          id: 0,
          flags: ['mentioned'],
          message: expect.objectContaining({ id, sender_id: alice.id, display_recipient: 'general', subject: 'lunch', type: 'stream' }),
        }),
      ]);
      expect(events[0]).not.toHaveProperty('local_message_id');
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events });
    });

    it('wakes a long-poll on one replica when the other appends', async () => {
      // One queue polled on each replica: the fan-out runs on one of them, so at least one
      // poll is woken from the other replica. Each poll's answer is the message, not the
      // heartbeat (4 s) it would otherwise have got.
      const onFirst = await register(bob, {}, first);
      const onSecond = (await register(carol, {}, first)).via(second);
      const polls = Promise.all([onFirst.poll(), onSecond.poll()]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const id = await toChannel(alice, general, 'wake up');
      const [a, b] = await polls;
      expect(a.map((event) => event.type)).toEqual(['message']);
      expect(b.map((event) => event.type)).toEqual(['message']);
      expect(messageIds(a)).toEqual([id]);
      expect(messageIds(b)).toEqual([id]);
    });

    it('gives local_message_id (and local_id) back only to the queue the sender named', async () => {
      const named = await register(alice);
      const other = await register(alice);
      const id = await toChannel(alice, general, 'echo', 'lunch', { queue_id: named.queueId, local_id: '7.01' });
      const [mine] = await named.waitFor('message');
      expect(mine).toMatchObject({ local_message_id: '7.01', local_id: '7.01', message: expect.objectContaining({ id, sender_id: alice.id }) });
      const [theirs] = await other.waitFor('message');
      expect(theirs).not.toHaveProperty('local_message_id');
      expect(theirs).not.toHaveProperty('local_id');
    });
  });

  describe('GET /events', () => {
    it('answers a waiting poll BAD_EVENT_QUEUE_ID by its heartbeat when Redis lost the queue', async () => {
      const queue = await register(bob);
      await queue.poll({ dontBlock: true }); // served here from now on, from memory
      const redis = new Redis(system.env.REDIS_URL);
      try {
        // The queue's hash and list, in its organization's partition (`{p<n>}`).
        await redis.del(...(await redis.keys(`${system.env.REDIS_KEY_PREFIX}eq:{p*}:q:${queue.queueId}*`)));
      } finally {
        redis.disconnect();
      }
      const res = await queue.request();
      expectError(res, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, { queue_id: queue.queueId });
    });

    it('answers a blocking poll with a heartbeat when nothing happens', async () => {
      const queue = await register(bob);
      const events = await queue.poll();
      expect(events).toEqual([{ type: 'heartbeat', id: 0 }]);
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events });
    });

    it('answers dont_block at once with no events', async () => {
      const queue = await register(bob);
      const res = await queue.request({ dontBlock: true });
      expect(expectSuccess(res)).toEqual({ result: 'success', msg: '', events: [], queue_id: queue.queueId });
    });

    it('keeps unacknowledged events, drops acknowledged ones, and only ever increases ids', async () => {
      const queue = await register(bob);
      const ids = [await toChannel(alice, general, 'one'), await toChannel(alice, general, 'two')];
      // Wait for both without acknowledging either (waitFor would acknowledge the first if the
      // two arrived in separate polls).
      const deadline = Date.now() + 10_000;
      while (messageIds(expectSuccess(await queue.request({ lastEventId: -1, dontBlock: true })).events).length < 2) {
        if (Date.now() > deadline) throw new Error('the two messages did not reach the queue');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Not acknowledged yet: asking again from -1 gets both again.
      const again = expectSuccess(await queue.request({ lastEventId: -1, dontBlock: true })).events;
      expect(messageIds(again)).toEqual(ids);
      expect(again.map((event) => event.id)).toEqual([0, 1]);
      // Acknowledging 0 drops the first only.
      expect(messageIds(expectSuccess(await queue.request({ lastEventId: 0, dontBlock: true })).events)).toEqual([ids[1]]);
      const third = await toChannel(alice, general, 'three');
      queue.lastEventId = 1;
      const [next] = await queue.waitFor('message', 1); // the first message this client has polled
      expect(next).toMatchObject({ id: 2, message: expect.objectContaining({ id: third }) });
      expect(expectSuccess(await queue.request({ lastEventId: 2, dontBlock: true })).events).toEqual([]);
    });

    it('refuses an acknowledgement it cannot honour', async () => {
      const queue = await register(bob);
      await toChannel(alice, general, 'one');
      await toChannel(alice, general, 'two');
      await queue.waitFor('message', 2);
      expectError(await queue.request({ lastEventId: 5, dontBlock: true }), 400, 'BAD_REQUEST', 'Event 5 was not in this queue');
      expectSuccess(await queue.request({ lastEventId: 1, dontBlock: true }));
      expectError(await queue.request({ lastEventId: 0, dontBlock: true }), 400, 'BAD_REQUEST', 'An event newer than 1 has already been pruned!');
    });

    it('answers BAD_EVENT_QUEUE_ID for an unknown queue, another user’s queue and a deleted one', async () => {
      const get = (queueId: string, user: TestUser, api = first) =>
        api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }, as(user));
      expectError(await get('nope', bob), 400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: nope', { queue_id: 'nope' });
      const queue = await register(bob);
      expectError(await get(queue.queueId, alice), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, {
        queue_id: queue.queueId,
      });
      expectSuccess(await second.delete('/events', { queue_id: queue.queueId }, as(bob)));
      expectError(await get(queue.queueId, bob, first), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, {
        queue_id: queue.queueId,
      });
      expectError(await first.delete('/events', { queue_id: queue.queueId }, as(bob)), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, {
        queue_id: queue.queueId,
      });
    });

    it('does not let another organization’s user poll a queue', async () => {
      const queue = await register(bob);
      const res = await first.get('/events', { queue_id: queue.queueId, last_event_id: -1, dont_block: true }, as(outsider, outsiderSubdomain));
      expectError(res, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, { queue_id: queue.queueId });
    });

    it('needs queue_id and last_event_id', async () => {
      expectError(await first.get('/events', { last_event_id: -1 }, as(bob)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'queue_id' argument", {
        var_name: 'queue_id',
      });
      expectError(await first.get('/events', { queue_id: 'x' }, as(bob)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'last_event_id' argument", {
        var_name: 'last_event_id',
      });
      expectError(await first.get('/events', { queue_id: 'x', last_event_id: 'one' }, as(bob)), 400, 'BAD_REQUEST', 'last_event_id is not valid JSON');
    });

    it('refuses callers who are not logged in', async () => {
      const queue = await register(bob);
      await expectCallersRefused((options) => second.get('/events', { queue_id: queue.queueId, last_event_id: -1 }, options), {
        subdomain,
        member: bob,
        outsider,
        deactivated,
      });
      await expectCallersRefused((options) => second.delete('/events', { queue_id: queue.queueId }, options), {
        subdomain,
        member: bob,
        outsider,
        deactivated,
      });
      // The queue is untouched by all of that.
      expectSuccess(await queue.request({ dontBlock: true }));
    });
  });

  describe('a gateway shutting down', () => {
    it('answers its waiting polls at once with nothing, and the queue lives on elsewhere', async () => {
      const queue = (await register(bob, {}, first)).via(second);
      const waiting = queue.poll();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await system.stopService('gateway#1')).toBe(0);
      // Without draining, the server would have waited for the heartbeat (4 s) and sent it.
      expect(await waiting).toEqual([]);
      const id = await toChannel(alice, general, 'after the shutdown');
      expect(messageIds(await queue.via(first).waitFor('message'))).toEqual([id]);
      await system.startService('gateway#1');
    }, 90_000); // stopping and starting a gateway took over 30 s on a starved CI run
  });

  describe('what a queue receives', () => {
    it('delivers only the event types asked for', async () => {
      const messagesOnly = await register(bob, { event_types: ['message'] });
      const draftsOnly = await register(bob, { event_types: ['drafts'] });
      expectSuccess(await first.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'draft' }] }, as(bob)));
      const id = await toChannel(alice, general, 'typed');
      expect(messageIds(await messagesOnly.waitFor('message'))).toEqual([id]);
      await draftsOnly.waitFor('drafts');
      expect((await messagesOnly.settle()).map((event) => event.type)).toEqual(['message']);
      expect((await draftsOnly.settle()).map((event) => event.type)).toEqual(['drafts']);
    });

    it('filters message events by the narrow', async () => {
      const inGeneral = await register(bob, { narrow: [['stream', 'general']] });
      const dmsOnly = await register(bob, { narrow: [{ operator: 'is', operand: 'dm' }] });
      const notLunch = await register(bob, { narrow: [{ operator: 'topic', operand: 'lunch', negated: true }] });
      const inGeneralId = await toChannel(alice, general, 'in general', 'dinner');
      const inRandomId = await toChannel(alice, random, 'in random');
      const dmId = await send(alice, { type: 'direct', to: [bob.id], content: 'psst' });
      await dmsOnly.waitFor('message');
      await inGeneral.waitFor('message');
      expect(messageIds(await inGeneral.settle())).toEqual([inGeneralId]);
      expect(messageIds(await dmsOnly.settle())).toEqual([dmId]);
      expect(messageIds(await notLunch.settle())).toEqual([inGeneralId, dmId]);
      expect(inRandomId).toBeGreaterThan(inGeneralId);
    });

    it('serves Markdown or HTML as apply_markdown says, and hides Gravatar URLs for client_gravatar', async () => {
      const html = await register(bob, { apply_markdown: true, client_gravatar: false });
      const markdown = await register(bob, { apply_markdown: false, client_gravatar: true });
      await toChannel(alice, general, 'some **bold** text');
      const [h] = await html.waitFor('message');
      const [m] = await markdown.waitFor('message');
      expect(h.message).toMatchObject({ content: '<p>some <strong>bold</strong> text</p>', content_type: 'text/html' });
      expect((h.message as { avatar_url: unknown }).avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
      expect(m.message).toMatchObject({ content: 'some **bold** text', content_type: 'text/x-markdown', avatar_url: null });
      expect(m.message).not.toHaveProperty('raw_content');
    });

    it('shows the empty topic as "general chat" unless the client declared empty_topic_name', async () => {
      const old = await register(bob);
      const modern = await register(bob, { client_capabilities: { empty_topic_name: true } });
      await toChannel(alice, general, 'no topic here', '');
      expect((await old.waitFor('message'))[0].message).toMatchObject({ subject: 'general chat' });
      expect((await modern.waitFor('message'))[0].message).toMatchObject({ subject: '' });
    });

    it('gives all_public_streams queues every public channel’s messages, with no flags, and nothing private', async () => {
      const everything = await register(carol, { all_public_streams: true });
      const plain = await register(carol);
      const secret = await factory.channel({ id: realmId }, { inviteOnly: true, subscribers: [alice] });
      const inRandom = await toChannel(alice, random, 'carol is not subscribed here');
      await send(alice, { type: 'stream', to: secret.id, topic: 't', content: 'private' });
      const inGeneral = await toChannel(alice, general, 'carol is subscribed here');
      await everything.waitFor('message', 2);
      const received = (await everything.settle()).filter((event) => event.type === 'message');
      expect(received.map((event) => [(event.message as { id: number }).id, event.flags])).toEqual([
        [inRandom, []],
        [inGeneral, []],
      ]);
      expect(messageIds(await plain.settle())).toEqual([inGeneral]);
    });

    it('reaches a queue registered after the fan-out last read who has queues', async () => {
      const earlier = await register(bob);
      const first = await toChannel(alice, general, 'before the second queue');
      expect(messageIds(await earlier.waitFor('message'))).toEqual([first]);
      const later = await register(bob, {}, second);
      const next = await toChannel(alice, general, 'after the second queue');
      expect(messageIds(await later.waitFor('message'))).toEqual([next]);
      expect(messageIds(await earlier.settle())).toEqual([first, next]);
    });

    it('refuses all_public_streams to guests', async () => {
      expectError(await first.post('/register', { all_public_streams: true }, as(guest)), 400, 'BAD_REQUEST', 'User not authorized for this query');
      expectSuccess(await first.post('/register', { all_public_streams: false }, as(guest)));
    });

    it('delivers nothing of another user’s or organization’s conversations', async () => {
      const queue = await register(carol);
      await toChannel(alice, random, 'carol is not subscribed');
      await send(alice, { type: 'direct', to: [bob.id], content: 'just for bob' });
      expect(await queue.settle()).toEqual([]);
    });
  });
});

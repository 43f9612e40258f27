import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectMatchesZulipOpenApi,
  expectSuccess,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const GATEWAY_DOMAIN = 'mail.teamchat.test';

describe('channel endpoints', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, other: TestUser, deactivated: TestUser;
  let outsider: TestUser, outsiderSubdomain: string;
  let general: { id: number; name: string }, secret: { id: number; name: string }, archived: { id: number; name: string };
  let foreign: { id: number; name: string };
  let counter = 0;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const get = (user: TestUser, path: string, query: Record<string, FormValue> = {}) => system.api.get(path, query, as(user));
  const post = (user: TestUser, path: string, form: Record<string, FormValue> = {}) => system.api.post(path, form, as(user));
  const unique = (prefix: string) => `${prefix} ${counter++}`;
  const subscribers = async (streamId: number) =>
    (await system.db.subscription.findMany({ where: { streamId, active: true }, select: { userId: true }, orderBy: { userId: 'asc' } })).map((s) => s.userId);

  beforeAll(async () => {
    system = await TestSystem.start({ env: { EMAIL_GATEWAY_DOMAIN: GATEWAY_DOMAIN } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'chanends' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Olga Other' });
    deactivated = await factory.user(org.realm, { isActive: false });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, guest, deactivated] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [other] });
    archived = await factory.channel(org.realm, { name: 'old times', subscribers: [member] });
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });
    const elsewhere = await factory.organization({ subdomain: 'chanends-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreign = await factory.channel(elsewhere, { name: 'foreign', subscribers: [outsider] });
  });
  afterAll(() => system?.stop());

  describe('GET /get_stream_id', () => {
    it('answers the id of a channel the caller may read, whatever the case of the name', async () => {
      const body = expectSuccess(await get(member, '/get_stream_id', { stream: 'GENERAL' }));
      expect(body).toEqual({ result: 'success', msg: '', stream_id: general.id });
      expectMatchesOpenApi('get', '/get_stream_id', body);
      expectMatchesZulipOpenApi('get', '/get_stream_id', body);
      expect(expectSuccess(await get(other, '/get_stream_id', { stream: 'secret' })).stream_id).toBe(secret.id);
    });

    it('does not reveal private channels, other organizations\' or archived ones, nor public ones to guests', async () => {
      for (const [user, name] of [
        [member, 'secret'],
        [admin, 'secret'],
        [member, 'foreign'],
        [member, 'old times'],
        [member, 'nothing here'],
      ] as const) {
        expectError(await get(user, '/get_stream_id', { stream: name }), 400, 'BAD_REQUEST', `Invalid channel name '${name}'`);
      }
      const lobby = await factory.channel({ id: realmId }, { name: unique('lobby') });
      expectError(await get(guest, '/get_stream_id', { stream: lobby.name }), 400, 'BAD_REQUEST', `Invalid channel name '${lobby.name}'`);
      expect(expectSuccess(await get(guest, '/get_stream_id', { stream: 'general' })).stream_id).toBe(general.id);
    });

    it('refuses a missing name and bad callers', async () => {
      expectError(await get(member, '/get_stream_id'), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream' argument", { var_name: 'stream' });
      await expectCallersRefused((options) => system.api.get('/get_stream_id', { stream: 'general' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET /streams/{stream_id}/members', () => {
    it('lists the active subscribers with active accounts', async () => {
      const body = expectSuccess(await get(member, `/streams/${general.id}/members`));
      expect(body.subscribers).toEqual([member.id, guest.id, other.id].sort((a, b) => a - b));
      expectMatchesOpenApi('get', '/streams/{stream_id}/members', body);
      expectMatchesZulipOpenApi('get', '/streams/{stream_id}/members', body);
    });

    it('shows a private channel\'s members to its subscribers and administrators only', async () => {
      expect(expectSuccess(await get(other, `/streams/${secret.id}/members`)).subscribers).toEqual([other.id]);
      expect(expectSuccess(await get(admin, `/streams/${secret.id}/members`)).subscribers).toEqual([other.id]);
      expectError(await get(member, `/streams/${secret.id}/members`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(guest, `/streams/${secret.id}/members`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    });

    it('treats unknown, foreign and absurd ids as invalid and refuses bad callers', async () => {
      expectError(await get(member, `/streams/${foreign.id}/members`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(member, '/streams/99999999/members'), 400, 'BAD_REQUEST', 'Invalid channel ID');
      // Beyond JSON's safe integers the route does not match, as for any non-integer.
      expect((await get(member, '/streams/99999999999999999999/members')).status).toBe(404);
      expect((await get(member, '/streams/abc/members')).status).toBe(404);
      await expectCallersRefused((options) => system.api.get(`/streams/${general.id}/members`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
    it('says whether a user is subscribed', async () => {
      const yes = expectSuccess(await get(member, `/users/${other.id}/subscriptions/${general.id}`));
      expect(yes).toEqual({ result: 'success', msg: '', is_subscribed: true });
      expectMatchesOpenApi('get', '/users/{user_id}/subscriptions/{stream_id}', yes);
      expectMatchesZulipOpenApi('get', '/users/{user_id}/subscriptions/{stream_id}', yes);
      expect(expectSuccess(await get(member, `/users/${admin.id}/subscriptions/${general.id}`)).is_subscribed).toBe(false);
      expect(expectSuccess(await get(admin, `/users/${other.id}/subscriptions/${secret.id}`)).is_subscribed).toBe(true);
    });

    it('does not reveal private channels, and knows no foreign or deactivated users', async () => {
      expectError(await get(member, `/users/${other.id}/subscriptions/${secret.id}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(member, `/users/${outsider.id}/subscriptions/${general.id}`), 400, 'BAD_REQUEST', 'No such user');
      expectError(await get(member, `/users/${deactivated.id}/subscriptions/${general.id}`), 400, 'BAD_REQUEST', 'No such user');
      expectError(await get(member, `/users/99999999999/subscriptions/${general.id}`), 400, 'BAD_REQUEST', 'No such user');
      expectError(await get(member, `/users/${other.id}/subscriptions/${foreign.id}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      await expectCallersRefused((options) => system.api.get(`/users/${other.id}/subscriptions/${general.id}`, {}, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('POST /channels/create', () => {
    it('creates a channel, subscribes the named users and tells everyone who can see it', async () => {
      const watcher = await EventQueueClient.register(system.api, as(admin), { event_types: ['stream', 'subscription'] });
      const joiner = await EventQueueClient.register(system.api, as(other), { event_types: ['subscription'] });
      const name = unique('projects');
      const res = await post(member, '/channels/create', { name, subscribers: [member.id, other.id] });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/channels/create', body);
      expectMatchesZulipOpenApi('post', '/channels/create', body);
      const row = await system.db.stream.findUniqueOrThrow({ where: { id: body.id as number } });
      expect(row).toMatchObject({ name, realmId, inviteOnly: false, creatorId: member.id, isDefault: false });
      expect(await subscribers(row.id)).toEqual([member.id, other.id].sort((a, b) => a - b));
      const [created] = await watcher.waitFor('stream');
      expect(created).toMatchObject({ op: 'create', streams: [expect.objectContaining({ stream_id: row.id, name })] });
      const [peer] = await watcher.waitFor('subscription');
      expect(peer).toMatchObject({ op: 'peer_add', stream_ids: [row.id] });
      const [added] = await joiner.waitFor('subscription');
      expect(added).toMatchObject({ op: 'add', subscriptions: [expect.objectContaining({ stream_id: row.id })] });
    });

    it('creates a channel with nobody subscribed, and a private one only its subscribers and administrators hear of', async () => {
      const adminQueue = await EventQueueClient.register(system.api, as(admin), { event_types: ['stream'] });
      const memberQueue = await EventQueueClient.register(system.api, as(member), { event_types: ['stream'] });
      const empty = expectSuccess(await post(member, '/channels/create', { name: unique('empty'), subscribers: [] }));
      expect(await subscribers(empty.id as number)).toEqual([]);
      expect((await memberQueue.waitFor('stream'))[0]).toMatchObject({ op: 'create', streams: [expect.objectContaining({ stream_id: empty.id, subscriber_count: 0 })] });

      const hidden = expectSuccess(await post(other, '/channels/create', { name: unique('hidden'), subscribers: [other.id], invite_only: true }));
      expect(await system.db.stream.findUniqueOrThrow({ where: { id: hidden.id as number } })).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false });
      await adminQueue.waitFor('stream', 2);
      const seenByMember = (await memberQueue.settle()).filter((event) => event.type === 'stream');
      expect(seenByMember.map((event) => (event.streams as { stream_id: number }[])[0].stream_id)).toEqual([empty.id]);
    });

    it('refuses a name in use, archived channels\' included, with Zulip\'s 409', async () => {
      expectError(await post(member, '/channels/create', { name: 'General', subscribers: [] }), 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'general' already exists");
      expectError(await post(member, '/channels/create', { name: 'old times', subscribers: [] }), 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'old times' already exists");
      // Another organization's name is free here.
      expect(expectSuccess(await post(member, '/channels/create', { name: 'foreign', subscribers: [] })).id).not.toBe(foreign.id);
    });

    it('applies the channel-creation rules of the subscription path', async () => {
      const count = () => system.db.stream.count({ where: { realmId } });
      const before = await count();
      expectError(await post(guest, '/channels/create', { name: unique('guest room'), subscribers: [] }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await post(member, '/channels/create', { name: unique('web'), subscribers: [], is_web_public: true }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await post(member, '/channels/create', { name: unique('dflt'), subscribers: [], is_default_stream: true }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(
        await post(admin, '/channels/create', { name: unique('dflt'), subscribers: [], is_default_stream: true, invite_only: true }),
        400,
        'BAD_REQUEST',
        'A default channel cannot be private.',
      );
      expectError(await post(member, '/channels/create', { name: '   ', subscribers: [] }), 400, 'BAD_REQUEST', "Channel name can't be empty.");
      expectError(await post(member, '/channels/create', { name: 'x'.repeat(61), subscribers: [] }), 400, 'BAD_REQUEST', 'Channel name too long (limit: 60 characters).');
      expectError(
        await post(member, '/channels/create', { name: unique('wordy'), description: 'x'.repeat(1025), subscribers: [] }),
        400,
        'BAD_REQUEST',
        'description is too long (limit: 1024 characters)',
      );
      expectError(await post(member, '/channels/create', { name: unique('nobody'), subscribers: [outsider.id] }), 400, 'BAD_REQUEST', `No such user: ${outsider.id}`);
      expectError(await post(member, '/channels/create', { name: unique('nobody'), subscribers: [99999999999] }), 400, 'BAD_REQUEST', 'No such user: 99999999999');
      expect((await post(member, '/channels/create', { name: unique('bad'), subscribers: 'x' })).status).toBe(400);
      expectError(await post(member, '/channels/create', { name: unique('no subscribers') }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscribers' argument", { var_name: 'subscribers' });
      expect(await count()).toBe(before);
    });

    it('makes a default channel when an administrator asks, and tells every user', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['default_streams'] });
      const body = expectSuccess(await post(admin, '/channels/create', { name: unique('welcome'), subscribers: [admin.id], is_default_stream: true }));
      const [event] = await queue.waitFor('default_streams');
      expect(event.default_streams).toContain(body.id);
      expectSuccess(await system.api.delete('/default_streams', { stream_id: body.id as number }, as(admin)));
    });

    it('is the same rule through POST /users/me/subscriptions: is_default_stream for administrators, never private', async () => {
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['default_streams'] });
      const name = unique('subscribed default');
      expectError(
        await post(member, '/users/me/subscriptions', { subscriptions: [{ name }], is_default_stream: true }),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
      expectError(
        await post(admin, '/users/me/subscriptions', { subscriptions: [{ name }], is_default_stream: true, invite_only: true }),
        400,
        'BAD_REQUEST',
        'A default channel cannot be private.',
      );
      expectError(await post(guest, '/users/me/subscriptions', { subscriptions: [{ name }] }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect(await system.db.stream.count({ where: { realmId, name } })).toBe(0);
      expectSuccess(await post(admin, '/users/me/subscriptions', { subscriptions: [{ name }], is_default_stream: true }));
      const row = await system.db.stream.findFirstOrThrow({ where: { realmId, name } });
      expect(row.isDefault).toBe(true);
      expect((await queue.waitFor('default_streams'))[0].default_streams).toContain(row.id);
      // Joining an existing channel with the flag changes nothing about it.
      expectSuccess(await post(member, '/users/me/subscriptions', { subscriptions: [{ name: 'general' }], is_default_stream: true }));
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: general.id } })).isDefault).toBe(false);
      await system.db.stream.update({ where: { id: row.id }, data: { isDefault: false } });
    });

    it('refuses bad callers', async () => {
      await expectCallersRefused((options) => system.api.post('/channels/create', { name: unique('x'), subscribers: [] }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('POST and DELETE /default_streams', () => {
    const defaults = async () =>
      (await system.db.stream.findMany({ where: { realmId, isDefault: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);

    it('lets administrators add and remove default channels, with events to every user and the register state', async () => {
      const lobby = await factory.channel({ id: realmId }, { name: unique('lobby') });
      const queues = await Promise.all([member, guest, owner].map((user) => EventQueueClient.register(system.api, as(user), { event_types: ['default_streams'] })));
      const added = expectSuccess(await post(admin, '/default_streams', { stream_id: lobby.id }));
      expectMatchesOpenApi('post', '/default_streams', added);
      expectMatchesZulipOpenApi('post', '/default_streams', added);
      expect(await defaults()).toEqual([lobby.id]);
      for (const queue of queues) expect((await queue.waitFor('default_streams'))[0].default_streams).toEqual([lobby.id]);
      const state = expectSuccess(await post(member, '/register', { fetch_event_types: ['default_streams'] }));
      expect(state.realm_default_streams).toEqual([lobby.id]);

      // Again: nothing changes, nothing is announced.
      expectSuccess(await post(admin, '/default_streams', { stream_id: lobby.id }));
      const removed = expectSuccess(await system.api.delete('/default_streams', { stream_id: lobby.id }, as(owner)));
      expectMatchesZulipOpenApi('delete', '/default_streams', removed);
      expect(await defaults()).toEqual([]);
      for (const queue of queues) {
        const events = await queue.waitFor('default_streams', 2);
        expect(events.map((event) => event.default_streams)).toEqual([[lobby.id], []]);
      }
      expectSuccess(await system.api.delete('/default_streams', { stream_id: lobby.id }, as(owner)));
      expect((await queues[0].settle()).filter((event) => event.type === 'default_streams')).toHaveLength(2);
    });

    it('lists default channels in GET /streams with include_default, even without include_public', async () => {
      const lobby = await factory.channel({ id: realmId }, { name: unique('lobby') });
      const listed = async (user: TestUser, query: Record<string, FormValue>) =>
        (expectSuccess(await get(user, '/streams', query)).streams as { stream_id: number }[]).map((c) => c.stream_id);
      expect(await listed(member, { include_public: false, include_default: true })).not.toContain(lobby.id);
      expectSuccess(await post(admin, '/default_streams', { stream_id: lobby.id }));
      expect(await listed(member, { include_public: false, include_default: true })).toContain(lobby.id);
      expect(await listed(member, { include_public: false })).not.toContain(lobby.id);
      expect(await listed(guest, { include_public: false, include_default: true })).not.toContain(lobby.id);
      expectSuccess(await system.api.delete('/default_streams', { stream_id: lobby.id }, as(admin)));
    });

    it('leaves a channel out of the defaults once it is private or archived', async () => {
      const lobby = await factory.channel({ id: realmId }, { name: unique('lobby') });
      expectSuccess(await post(admin, '/default_streams', { stream_id: lobby.id }));
      await system.db.stream.update({ where: { id: lobby.id }, data: { inviteOnly: true } });
      expect(expectSuccess(await post(member, '/register', { fetch_event_types: ['default_streams'] })).realm_default_streams).toEqual([]);
      await system.db.stream.update({ where: { id: lobby.id }, data: { inviteOnly: false, isDefault: false } });
    });

    it('refuses members, private channels, and channels the caller cannot reach, changing nothing', async () => {
      for (const user of [member, guest]) {
        expectError(await post(user, '/default_streams', { stream_id: general.id }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
        expectError(await system.api.delete('/default_streams', { stream_id: general.id }, as(user)), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      }
      const mine = await factory.channel({ id: realmId }, { name: unique('mine'), inviteOnly: true, subscribers: [admin] });
      expectError(await post(admin, '/default_streams', { stream_id: mine.id }), 400, 'BAD_REQUEST', 'Private channels cannot be made default.');
      expectError(await post(admin, '/default_streams', { stream_id: secret.id }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await post(admin, '/default_streams', { stream_id: foreign.id }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await post(admin, '/default_streams', { stream_id: archived.id }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await post(admin, '/default_streams', { stream_id: 99999999999 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await system.api.delete('/default_streams', { stream_id: foreign.id }, as(admin)), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await post(admin, '/default_streams', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", { var_name: 'stream_id' });
      expect((await post(admin, '/default_streams', { stream_id: 'abc' })).status).toBe(400);
      expect(await defaults()).toEqual([]);
      await expectCallersRefused((options) => system.api.post('/default_streams', { stream_id: general.id }, options), { subdomain, member: admin, outsider, deactivated });
      await expectCallersRefused((options) => system.api.delete('/default_streams', { stream_id: general.id }, options), { subdomain, member: admin, outsider, deactivated });
    });
  });

  describe('POST /user_topics and PATCH /users/me/subscriptions/muted_topics', () => {
    const policy = async (user: TestUser, streamId: number, topic: string) =>
      (await system.db.userTopic.findFirst({ where: { userId: user.id, streamId, topicName: topic } }))?.visibilityPolicy ?? 0;

    it('sets, changes and removes a visibility policy, with user_topic events to the caller only', async () => {
      const mine = await EventQueueClient.register(system.api, as(member), { event_types: ['user_topic'] });
      const theirs = await EventQueueClient.register(system.api, as(other), { event_types: ['user_topic'] });
      const set = (visibility_policy: number) => post(member, '/user_topics', { stream_id: general.id, topic: 'lunch', visibility_policy });
      const body = expectSuccess(await set(3));
      expectMatchesOpenApi('post', '/user_topics', body);
      expectMatchesZulipOpenApi('post', '/user_topics', body);
      expect(await policy(member, general.id, 'lunch')).toBe(3);
      expectSuccess(await set(1));
      expect(await policy(member, general.id, 'lunch')).toBe(1);
      expectSuccess(await set(1));
      expectSuccess(await set(0));
      expect(await system.db.userTopic.count({ where: { userId: member.id, streamId: general.id } })).toBe(0);
      expectSuccess(await set(0));
      const events = await mine.waitFor('user_topic', 3);
      expect(events.map((e) => [e.stream_id, e.topic_name, e.visibility_policy])).toEqual([
        [general.id, 'lunch', 3],
        [general.id, 'lunch', 1],
        [general.id, 'lunch', 0],
      ]);
      expect((await mine.settle()).length).toBe(3);
      expect(await theirs.settle()).toEqual([]);
      const state = expectSuccess(await post(member, '/register', { fetch_event_types: ['user_topic'] }));
      expect(state.user_topics).toEqual([]);
    });

    it('refuses channels the caller cannot read, bad policies and bad topics, changing nothing', async () => {
      const set = (user: TestUser, form: Record<string, FormValue>) => post(user, '/user_topics', form);
      expectError(await set(member, { stream_id: secret.id, topic: 't', visibility_policy: 1 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await set(member, { stream_id: foreign.id, topic: 't', visibility_policy: 1 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await set(member, { stream_id: foreign.id, topic: 't', visibility_policy: 0 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await set(member, { stream_id: 99999999999, topic: 't', visibility_policy: 0 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await set(member, { stream_id: general.id, topic: 't', visibility_policy: 7 }), 400, 'BAD_REQUEST', 'Invalid visibility_policy');
      expectError(await set(member, { stream_id: general.id, topic: 'a\u0000b', visibility_policy: 1 }), 400, 'BAD_REQUEST', 'topic must not contain null bytes');
      expectError(await set(member, { stream_id: general.id, visibility_policy: 1 }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic' argument", { var_name: 'topic' });
      expect((await set(member, { stream_id: general.id, topic: 't', visibility_policy: 'muted' })).status).toBe(400);
      expect(await system.db.userTopic.count({ where: { userId: member.id } })).toBe(0);
      // Removing a policy is allowed where the channel can no longer be read.
      await system.db.userTopic.create({ data: { userId: member.id, streamId: secret.id, topicName: 'left', visibilityPolicy: 1 } });
      expectSuccess(await set(member, { stream_id: secret.id, topic: 'left', visibility_policy: 0 }));
      expect(await policy(member, secret.id, 'left')).toBe(0);
      await expectCallersRefused((options) => system.api.post('/user_topics', { stream_id: general.id, topic: 't', visibility_policy: 1 }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });

    it('mutes and unmutes through the deprecated endpoint, by channel id or name', async () => {
      const queue = await EventQueueClient.register(system.api, as(guest), { event_types: ['user_topic'] });
      const mute = (form: Record<string, FormValue>) => system.api.patch('/users/me/subscriptions/muted_topics', form, as(guest));
      const body = expectSuccess(await mute({ stream_id: general.id, topic: 'noise', op: 'add' }));
      expectMatchesOpenApi('patch', '/users/me/subscriptions/muted_topics', body);
      expectMatchesZulipOpenApi('patch', '/users/me/subscriptions/muted_topics', body);
      expect(await policy(guest, general.id, 'noise')).toBe(1);
      expectError(await mute({ stream: 'general', topic: 'noise', op: 'add' }), 400, 'BAD_REQUEST', 'Topic already muted');
      const legacy = expectSuccess(await post(guest, '/register', { fetch_event_types: ['muted_topics'] }));
      expect(legacy.muted_topics).toEqual([['general', 'noise', expect.any(Number)]]);
      expectSuccess(await mute({ stream: 'general', topic: 'noise', op: 'remove' }));
      expect(await policy(guest, general.id, 'noise')).toBe(0);
      expectError(await mute({ stream_id: general.id, topic: 'noise', op: 'remove' }), 400, 'BAD_REQUEST', 'Topic is not muted');
      expect((await queue.waitFor('user_topic', 2)).map((e) => e.visibility_policy)).toEqual([1, 0]);
    });

    it('refuses the deprecated endpoint\'s bad input', async () => {
      const mute = (user: TestUser, form: Record<string, FormValue>) => system.api.patch('/users/me/subscriptions/muted_topics', form, as(user));
      expectError(await mute(member, { topic: 't', op: 'add' }), 400, 'BAD_REQUEST', "Please supply 'stream'.");
      expectError(await mute(member, { stream: 'general', stream_id: general.id, topic: 't', op: 'add' }), 400, 'BAD_REQUEST', "Please choose one: 'stream' or 'stream_id'.");
      expectError(await mute(member, { stream: 'secret', topic: 't', op: 'add' }), 400, 'BAD_REQUEST', "Invalid channel name 'secret'");
      expectError(await mute(member, { stream_id: secret.id, topic: 't', op: 'add' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await mute(member, { stream_id: 99999999999, topic: 't', op: 'add' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expect((await mute(member, { stream_id: general.id, topic: 't', op: 'toggle' })).status).toBe(400);
      expectError(await mute(member, { stream_id: general.id, op: 'add' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic' argument", { var_name: 'topic' });
      expect(await system.db.userTopic.count({ where: { userId: member.id, topicName: 't' } })).toBe(0);
      await expectCallersRefused((options) => system.api.patch('/users/me/subscriptions/muted_topics', { stream_id: general.id, topic: 't', op: 'add' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET /streams/{stream_id}/email_address', () => {
    it('answers the channel\'s incoming address in Zulip\'s format with the configured domain', async () => {
      const { emailToken } = await system.db.stream.findUniqueOrThrow({ where: { id: general.id } });
      expect(emailToken).toMatch(/^[0-9a-f]{32}$/);
      const body = expectSuccess(await get(member, `/streams/${general.id}/email_address`));
      expect(body.email).toBe(`general.${emailToken}@${GATEWAY_DOMAIN}`);
      expectMatchesOpenApi('get', '/streams/{stream_id}/email_address', body);
      expectMatchesZulipOpenApi('get', '/streams/{stream_id}/email_address', body);
      expect(expectSuccess(await get(member, `/streams/${general.id}/email_address`, { sender_id: member.id })).email).toBe(body.email);
      const spaced = await factory.channel({ id: realmId }, { name: 'Déjà vu / plans', subscribers: [member] });
      const spacedToken = (await system.db.stream.findUniqueOrThrow({ where: { id: spaced.id } })).emailToken;
      expect(expectSuccess(await get(member, `/streams/${spaced.id}/email_address`)).email).toBe(`deja-vu-plans.${spacedToken}@${GATEWAY_DOMAIN}`);
      const japanese = await factory.channel({ id: realmId }, { name: '日本語', subscribers: [member] });
      const japaneseToken = (await system.db.stream.findUniqueOrThrow({ where: { id: japanese.id } })).emailToken;
      expect(expectSuccess(await get(member, `/streams/${japanese.id}/email_address`)).email).toBe(`${japaneseToken}@${GATEWAY_DOMAIN}`);
    });

    it('does not reveal channels the caller cannot read, and takes no other sender', async () => {
      expectError(await get(member, `/streams/${secret.id}/email_address`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(admin, `/streams/${secret.id}/email_address`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(member, `/streams/${foreign.id}/email_address`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(member, `/streams/${archived.id}/email_address`), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectError(await get(member, `/streams/${general.id}/email_address`, { sender_id: other.id }), 400, 'BAD_REQUEST', 'Invalid user ID');
      expect((await get(member, `/streams/${general.id}/email_address`, { sender_id: 'me' })).status).toBe(400);
      await expectCallersRefused((options) => system.api.get(`/streams/${general.id}/email_address`, {}, options), { subdomain, member, outsider, deactivated });
      void outsiderSubdomain;
    });
  });
});

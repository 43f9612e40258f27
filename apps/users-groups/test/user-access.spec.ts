import type { RealmModel } from '@teamchat/db';
import { EventQueueClient, Factory, TestSystem, expectError, expectMatchesOpenApi, expectSuccess, type QueueEvent, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { eventStreamName } from '@teamchat/contracts';
import { DeliverPolicy, connect } from 'nats';

interface Person {
  user_id: number;
  email: string;
  full_name: string;
  delivery_email: string | null;
  avatar_url: string | null;
  role: number;
}

/**
 * Zulip's can_access_all_users_group: set to role:members, a guest sees only the people they
 * share a channel or a direct-message conversation with, bots and themselves (UserAccess).
 */
describe("who a guest may see (can_access_all_users_group)", () => {
  let system: TestSystem;
  let factory: Factory;
  let realm: RealmModel;
  let owner: TestUser;
  let channelmate: TestUser;
  let stranger: TestUser;
  let correspondent: TestUser;
  let formerChannelmate: TestUser;
  let bot: TestUser;
  let guest: TestUser;
  let otherGuest: TestUser;
  let outsider: TestUser;
  let lobbyId: number;
  const on = { subdomain: 'access' };
  const as = (user: TestUser) => ({ ...on, auth: user });

  const restrict = async (group: 'role:members' | 'role:everyone') =>
    expectSuccess(await system.api.patch('/realm', { can_access_all_users_group: JSON.stringify({ new: await factory.systemGroupId(realm, group) }) }, as(owner)));
  const listed = async (viewer: TestUser, query: Record<string, string> = {}) => {
    const body = expectSuccess(await system.api.get('/users', query, as(viewer))) as { members: Person[] };
    expectMatchesOpenApi('get', '/users', body);
    return body.members.map((person) => person.user_id).sort((a, b) => a - b);
  };
  const registered = async (viewer: TestUser, capabilities: Record<string, boolean> = {}) => {
    const res = await system.api.post('/register', { fetch_event_types: JSON.stringify(['realm_user']), client_capabilities: JSON.stringify(capabilities) }, as(viewer));
    const body = expectSuccess(res) as { realm_users: Person[]; realm_non_active_users: Person[] };
    return { active: new Map(body.realm_users.map((p) => [p.user_id, p])), nonActive: new Map(body.realm_non_active_users.map((p) => [p.user_id, p])), ids: body.realm_users.map((p) => p.user_id) };
  };

  /** Zulip's get_data_for_inaccessible_user. */
  const unknownUser = (userId: number) => ({
    user_id: userId,
    email: `user${userId}@access.testserver.local`,
    delivery_email: null,
    full_name: 'Unknown user',
    avatar_url: 'http://access.testserver.local/static/images/unknown-user-avatar.png',
    avatar_version: 1,
    date_joined: '1970-01-01T00:00:00+00:00',
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    role: Role.MEMBER,
    bot_type: null,
    timezone: '',
    profile_data: {},
  });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: on.subdomain });
    owner = await factory.user(realm, { role: Role.OWNER });
    channelmate = await factory.user(realm, { fullName: 'Carla Channelmate' });
    stranger = await factory.user(realm, { fullName: 'Sam Stranger' });
    correspondent = await factory.user(realm, { fullName: 'Dora Correspondent' });
    formerChannelmate = await factory.user(realm, { fullName: 'Fred Former', isActive: false });
    bot = await factory.user(realm, { fullName: 'Helper Bot', isBot: true });
    guest = await factory.user(realm, { role: Role.GUEST, fullName: 'Gil Guest' });
    otherGuest = await factory.user(realm, { role: Role.GUEST, fullName: 'Gwen Guest' });
    outsider = await factory.user(await factory.organization({ subdomain: 'access-elsewhere' }));
    lobbyId = (await factory.channel(realm, { name: 'lobby', subscribers: [guest, channelmate, formerChannelmate, owner] })).id;
    await factory.channel(realm, { name: 'back office', subscribers: [stranger, owner, correspondent] });
    // A conversation of three (Zulip's direct message group) makes its members known to each other.
    const members = [guest.id, correspondent.id, owner.id].sort((a, b) => a - b);
    await system.db.directMessageGroup.create({ data: { realmId: realm.id, memberKey: members.join(','), memberIds: members } });
  });
  afterAll(() => system.stop());

  describe('with role:members', () => {
    beforeAll(() => restrict('role:members'));

    it('lists only the people a guest shares a channel or a conversation with, bots and themselves', async () => {
      expect(await listed(guest)).toEqual([owner.id, channelmate.id, correspondent.id, bot.id, guest.id].sort((a, b) => a - b));
      // A deactivated channelmate no longer shares the channel; another guest sharing nothing is hidden too.
      expect(await listed(guest)).not.toContain(formerChannelmate.id);
      expect(await listed(otherGuest)).toEqual([bot.id, otherGuest.id].sort((a, b) => a - b));
    });

    it('leaves hidden people out of user_ids, and names nobody it could not find otherwise', async () => {
      expect(await listed(guest, { user_ids: JSON.stringify([stranger.id, channelmate.id]) })).toEqual([channelmate.id]);
    });

    it('refuses GET /users/{id} and /users/{email} for a hidden person, and serves the others', async () => {
      expectError(await system.api.get(`/users/${stranger.id}`, {}, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.get(`/users/user${stranger.id}@access.testserver.local`, {}, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect((expectSuccess(await system.api.get(`/users/${channelmate.id}`, {}, as(guest))).user as Person).full_name).toBe('Carla Channelmate');
      expect((expectSuccess(await system.api.get(`/users/${bot.id}`, {}, as(guest))).user as Person).full_name).toBe('Helper Bot');
    });

    it("refuses a guest a hidden person's status and channel subscription, and serves the others'", async () => {
      expectError(await system.api.get(`/users/${stranger.id}/status`, {}, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.get(`/users/${stranger.id}/subscriptions/${lobbyId}`, {}, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect(expectSuccess(await system.api.get(`/users/${channelmate.id}/status`, {}, as(guest))).status).toEqual({});
      expect(expectSuccess(await system.api.get(`/users/${channelmate.id}/subscriptions/${lobbyId}`, {}, as(guest))).is_subscribed).toBe(true);
      // A member is restricted by nothing.
      expect(expectSuccess(await system.api.get(`/users/${stranger.id}/subscriptions/${lobbyId}`, {}, as(channelmate))).is_subscribed).toBe(false);
      expect(expectSuccess(await system.api.get(`/users/${stranger.id}/status`, {}, as(channelmate))).status).toEqual({});
    });

    it('shows hidden people to POST /register as "Unknown user", active or not', async () => {
      const { active, nonActive } = await registered(guest);
      for (const hidden of [stranger, formerChannelmate, otherGuest]) {
        expect(active.get(hidden.id)).toEqual(unknownUser(hidden.id));
      }
      expect(nonActive.has(formerChannelmate.id)).toBe(false);
      // The placeholder's avatar is served (Zulip's static image path).
      const avatar = await fetch(`http://127.0.0.1:${system.ports.gateway}/static/images/unknown-user-avatar.png`);
      expect([avatar.status, avatar.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(Buffer.from(await avatar.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
      expect(active.get(channelmate.id)?.full_name).toBe('Carla Channelmate');
      expect(active.get(guest.id)?.delivery_email).toBe(guest.email);
    });

    it('leaves hidden people out of POST /register for a client with user_list_incomplete', async () => {
      const { ids, nonActive } = await registered(guest, { user_list_incomplete: true });
      expect(ids).toEqual([owner.id, channelmate.id, correspondent.id, bot.id, guest.id].sort((a, b) => a - b));
      expect([...nonActive.keys()]).toEqual([]);
    });

    it('refuses a direct message from a guest to someone hidden from them, and sends the others', async () => {
      const send = (from: TestUser, to: TestUser[]) =>
        system.api.post('/messages', { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content: 'hello' }, as(from));
      const before = await system.db.message.count();
      expectError(await send(guest, [stranger]), 400, 'BAD_REQUEST', 'You do not have permission to access some of the recipients.');
      expectError(await send(guest, [channelmate, stranger]), 400, 'BAD_REQUEST', 'You do not have permission to access some of the recipients.');
      expect(await system.db.message.count()).toBe(before);
      expectSuccess(await send(guest, [channelmate]));
      expectSuccess(await send(guest, [correspondent, owner]));
      expectSuccess(await send(guest, [bot]));
      // Nobody is hidden from a member: they may write to a guest, and to anyone.
      expectSuccess(await send(stranger, [guest]));
    });

    it("sends a guest no realm_user update about someone hidden from them, and the others' as before", async () => {
      const hidden = await factory.user(realm, { fullName: 'Hal Hidden' });
      const watch = (user: TestUser) => EventQueueClient.register(system.api, { auth: user, subdomain: on.subdomain }, { event_types: JSON.stringify(['realm_user']) });
      const [guestQueue, memberQueue] = await Promise.all([watch(guest), watch(channelmate)]);
      // An administrator renames the hidden user, then the visible channelmate; the hidden user renames themselves too.
      expectSuccess(await system.api.patch(`/users/${hidden.id}`, { full_name: 'Hal Renamed' }, as(owner)));
      expectSuccess(await system.api.patch(`/users/${channelmate.id}`, { full_name: 'Carla Renamed' }, as(owner)));
      expectSuccess(await system.api.patch('/settings', { full_name: 'Hal Again' }, as(hidden)));
      const people = (events: QueueEvent[]) => events.map((event) => event.person);
      expect(people(await memberQueue.waitFor('realm_user', 3))).toEqual([
        { user_id: hidden.id, full_name: 'Hal Renamed' },
        { user_id: channelmate.id, full_name: 'Carla Renamed' },
        { user_id: hidden.id, full_name: 'Hal Again' },
      ]);
      // The member's queue has all three: the guest's has had time for them too (one organization's events go in order).
      expect(people(await guestQueue.settle())).toEqual([{ user_id: channelmate.id, full_name: 'Carla Renamed' }]);
      expectSuccess(await system.api.patch(`/users/${channelmate.id}`, { full_name: 'Carla Channelmate' }, as(owner)));
    });

    it("sends a guest no deactivation or reactivation of someone hidden from them, and a channelmate's return", async () => {
      const hidden = await factory.user(realm, { fullName: 'Rita Returning' });
      const watch = (user: TestUser) => EventQueueClient.register(system.api, { auth: user, subdomain: on.subdomain }, { event_types: JSON.stringify(['realm_user']) });
      const [guestQueue, memberQueue] = await Promise.all([watch(guest), watch(channelmate)]);
      expectSuccess(await system.api.delete(`/users/${hidden.id}`, {}, as(owner)));
      expectSuccess(await system.api.post(`/users/${hidden.id}/reactivate`, {}, as(owner)));
      // Back, the former channelmate shares the channel with the guest again.
      expectSuccess(await system.api.post(`/users/${formerChannelmate.id}/reactivate`, {}, as(owner)));
      const activity = (events: QueueEvent[]) => events.map((event) => [(event.person as { user_id: number }).user_id, (event.person as { is_active?: boolean }).is_active]);
      expect(activity(await memberQueue.waitFor('realm_user', 3))).toEqual([
        [hidden.id, false],
        [hidden.id, true],
        [formerChannelmate.id, true],
      ]);
      expect(activity(await guestQueue.settle())).toEqual([[formerChannelmate.id, true]]);
      expectSuccess(await system.api.delete(`/users/${formerChannelmate.id}`, {}, as(owner)));
    });

    it('tells a guest of the people a channel shows them when they or others join it, and of those it stops showing when they leave', async () => {
      const watch = (user: TestUser) => EventQueueClient.register(system.api, { auth: user, subdomain: on.subdomain }, { event_types: JSON.stringify(['realm_user']) });
      const guestQueue = await watch(guest);
      const join = (channel: string, user: TestUser) =>
        system.api.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: channel }]), principals: JSON.stringify([user.id]) }, as(owner));
      const leave = (channel: string, user: TestUser) =>
        system.api.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([channel]), principals: JSON.stringify([user.id]) }, as(owner));
      const seen = (events: QueueEvent[]) => events.map((event) => [event.op, (event.person as Person).user_id, (event.person as Person).full_name]);

      // The guest joins the annex: of its members only Anna is new to them (the owner shares the lobby).
      const anna = await factory.user(realm, { fullName: 'Anna Annex' });
      await factory.channel(realm, { name: 'annex', subscribers: [owner, anna] });
      expectSuccess(await join('annex', guest));
      expect(seen(await guestQueue.waitFor('realm_user', 1))).toEqual([['add', anna.id, 'Anna Annex']]);
      expect(await listed(guest)).toContain(anna.id);
      expectSuccess(await leave('annex', guest));
      expect(seen(await guestQueue.waitFor('realm_user', 2)).slice(1)).toEqual([['remove', anna.id, 'Unknown user']]);
      expect(await listed(guest)).not.toContain(anna.id);

      // Another guest joins the lobby: the guest there now sees them, until they leave.
      expectSuccess(await join('lobby', otherGuest));
      expect(seen(await guestQueue.waitFor('realm_user', 3)).slice(2)).toEqual([['add', otherGuest.id, 'Gwen Guest']]);
      expectSuccess(await leave('lobby', otherGuest));
      expect(seen(await guestQueue.waitFor('realm_user', 4)).slice(3)).toEqual([['remove', otherGuest.id, 'Unknown user']]);
      expect(await guestQueue.settle()).toHaveLength(4);
    });

    it('announces nothing twice when the subscription event comes again (the consumer started over from before it)', async () => {
      const guestQueue = await EventQueueClient.register(system.api, { auth: guest, subdomain: on.subdomain }, { event_types: JSON.stringify(['realm_user']) });
      const nina = await factory.user(realm, { fullName: 'Nina Nook' });
      await factory.channel(realm, { name: 'nook', subscribers: [owner, nina] });
      const principals = JSON.stringify([guest.id]);
      const seen = (events: QueueEvent[]) => events.map((event) => [event.op, (event.person as Person).user_id]);

      const nats = await connect({ servers: system.env.NATS_URL });
      try {
        const manager = await nats.jetstreamManager();
        const stream = eventStreamName(system.env.NATS_SUBJECT_PREFIX);
        const before = (await manager.streams.info(stream)).state.last_seq;
        expectSuccess(await system.api.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'nook' }]), principals }, as(owner)));
        expect(seen(await guestQueue.waitFor('realm_user', 1))).toEqual([['add', nina.id]]);

        // JetStream delivers the join again: the consumer, made anew from the event after `before`
        // (as a consumer reset to its first unacknowledged event is), is found by users-groups'
        // reader when it resumes.
        const name = 'users-groups-subscription-access';
        const { config } = await manager.consumers.info(stream, name);
        await manager.consumers.delete(stream, name);
        await manager.consumers.add(stream, {
          durable_name: name,
          ack_policy: config.ack_policy,
          filter_subject: config.filter_subject,
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: before + 1,
        });
        // Handled again once the new consumer has it acknowledged, while the guest is still in the channel.
        const deadline = Date.now() + 15000;
        for (;;) {
          const info = await manager.consumers.info(stream, name);
          if (info.delivered.consumer_seq > 0 && info.num_pending === 0 && info.num_ack_pending === 0) break;
          if (Date.now() > deadline) throw new Error('the subscription event was not delivered again');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // Then the guest leaves: its announcement comes after any the replayed join made.
        expectSuccess(await system.api.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['nook']), principals }, as(owner)));
        expect(seen(await guestQueue.waitFor('realm_user', 2))).toEqual([
          ['add', nina.id],
          ['remove', nina.id],
        ]);
        expect(await guestQueue.settle()).toHaveLength(2);
      } finally {
        await nats.drain();
      }
    }, 30000);

    it('announces a new person to a guest as "Unknown user", to a guest with user_list_incomplete not at all, and to members as they are', async () => {
      const watch = (user: TestUser, capabilities: Record<string, boolean> = {}) =>
        EventQueueClient.register(system.api, { auth: user, subdomain: on.subdomain }, { event_types: JSON.stringify(['realm_user']), client_capabilities: JSON.stringify(capabilities) });
      const [guestQueue, incompleteQueue, memberQueue] = await Promise.all([watch(guest), watch(guest, { user_list_incomplete: true }), watch(channelmate)]);
      const created = expectSuccess(
        await system.api.post('/users', { email: 'nina@access.example.test', password: 'a long and unguessable password', full_name: 'Nina Newcomer' }, as(owner)),
      ) as { user_id: number };
      const added = async (queue: EventQueueClient, userId: number) => {
        for (let count = 1; ; count++) {
          const found = (await queue.waitFor('realm_user', count)).find((event) => (event.person as Person).user_id === userId);
          if (found) return found;
        }
      };
      expect(await added(memberQueue, created.user_id)).toMatchObject({ op: 'add', person: { user_id: created.user_id, full_name: 'Nina Newcomer', email: 'nina@access.example.test' } });
      const shownToGuest = await added(guestQueue, created.user_id);
      expect(shownToGuest).toEqual({ id: shownToGuest.id, type: 'realm_user', op: 'add', person: { ...unknownUser(created.user_id), is_active: true } });
      // The guest's other queue has had time for it (one organization's events go in order).
      expect((await incompleteQueue.settle()).map((event) => (event.person as Person).user_id)).not.toContain(created.user_id);
      // A bot is hidden from nobody: every queue gets it as it is.
      const newBot = expectSuccess(await system.api.post('/bots', { full_name: 'Newer Bot', short_name: 'newer' }, as(owner))) as { user_id: number };
      expect(await added(incompleteQueue, newBot.user_id)).toMatchObject({ op: 'add', person: { user_id: newBot.user_id, full_name: 'Newer Bot', is_bot: true } });
    });

    it('hides nobody from members and above, nor across organizations', async () => {
      const everyone = (await system.db.user.findMany({ where: { realmId: realm.id }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
      expect(everyone).toEqual(expect.arrayContaining([stranger.id, formerChannelmate.id, otherGuest.id]));
      expect(await listed(stranger)).toEqual(everyone);
      expect(await listed(owner)).toEqual(everyone);
      const seenByMember = await registered(stranger);
      expect(seenByMember.active.get(guest.id)?.full_name).toBe('Gil Guest');
      expectError(await system.api.get(`/users/${stranger.id}`, {}, { ...on, auth: outsider }), 401, 'UNAUTHORIZED', 'Account is not associated with this subdomain');
    });
  });

  describe('with role:everyone', () => {
    beforeAll(() => restrict('role:everyone'));

    it('hides nobody from a guest', async () => {
      expect(await listed(otherGuest)).toContain(stranger.id);
      expect((expectSuccess(await system.api.get(`/users/${stranger.id}`, {}, as(guest))).user as Person).full_name).toBe('Sam Stranger');
      expect((await registered(guest)).active.get(stranger.id)?.full_name).toBe('Sam Stranger');
      expectSuccess(await system.api.get(`/users/${stranger.id}/status`, {}, as(guest)));
    });
  });
});

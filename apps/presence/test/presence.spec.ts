import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TEST_REDIS_URL,
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
import { Redis } from 'ioredis';

const PRESENCE_CHANGED = 'event.presence.presence_changed.v1';
const FLUSH_MS = 300;

type Form = Record<string, FormValue>;
interface PresenceBody {
  presences?: Record<string, Record<string, unknown>>;
  presence_last_update_id?: number;
  server_timestamp?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('presence', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let redis: Redis;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser;
  let other: TestUser, hidden: TestUser, deactivated: TestUser, bot: TestUser, quiet: TestUser;
  let outsider: TestUser, outsiderSubdomain: string;
  /** Every active user of the organization, bots included: who hears of a presence change. */
  let everyone: number[];

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const report = (user: TestUser, form: Form = {}, sub = subdomain) =>
    system.api.post<PresenceBody>('/users/me/presence', { status: 'active', ...form }, as(user, sub));
  const realmPresence = (user: TestUser, sub = subdomain) => system.api.get<PresenceBody>('/realm/presence', {}, as(user, sub));
  const userPresence = (caller: TestUser, who: string | number, sub = subdomain) =>
    system.api.get<{ presence: Record<string, { status: string; timestamp: number }> }>(`/users/${encodeURIComponent(String(who))}/presence`, {}, as(caller, sub));

  /** Writes a user's live presence as if reported at these times (Unix seconds; active 0: never). */
  const storeAt = async (user: TestUser, active: number, connected: number) => {
    const seq = await redis.incr(`presence:{${user.realmId}}:seq`);
    await redis.hset(`presence:{${user.realmId}}`, String(user.id), `${active},${connected},${seq}`);
    await redis.zadd(`presence:{${user.realmId}}:ids`, seq, String(user.id));
  };
  const forget = async (user: TestUser) => {
    await redis.hdel(`presence:{${user.realmId}}`, String(user.id));
    await redis.zrem(`presence:{${user.realmId}}:ids`, String(user.id));
    await system.db.userPresence.deleteMany({ where: { userId: user.id } });
  };

  const thePresenceEvent = async (): Promise<ClientEvent> => {
    const [event] = await events.waitFor<ClientEvent>(PRESENCE_CHANGED);
    expect(await events.settle(PRESENCE_CHANGED, 100)).toHaveLength(1);
    return event;
  };
  const expectNoPresenceEvent = async () => expect(await events.settle(PRESENCE_CHANGED)).toEqual([]);
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    system = await TestSystem.start({ env: { PRESENCE_FLUSH_INTERVAL_MS: String(FLUSH_MS) } });
    factory = new Factory(system.db);
    redis = new Redis(TEST_REDIS_URL, { keyPrefix: system.env.REDIS_KEY_PREFIX });
    const org = await factory.organizationWithStaff({ subdomain: 'presence' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member', email: 'other@presence.test', settings: { email_address_visibility: 4 } });
    hidden = await factory.user(org.realm, { fullName: 'Invisible Member', settings: { presence_enabled: false } });
    quiet = await factory.user(org.realm, { fullName: 'Never Reported' });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    bot = await factory.user(org.realm, { fullName: 'Helper Bot', isBot: true, botOwnerId: member.id });
    everyone = [owner.id, admin.id, member.id, guest.id, other.id, hidden.id, quiet.id, bot.id].sort((a, b) => a - b);

    const elsewhere = await factory.organization({ subdomain: 'presence-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(async () => {
    redis?.disconnect();
    await system.stop();
  });
  beforeEach(() => events.clear());

  describe('POST /users/me/presence', () => {
    it('records a first report, announces it to the organization in both formats, and answers the legacy format by email', async () => {
      await forget(member);
      const before = nowSeconds();
      const body = expectSuccess(await report(member));
      expectMatchesOpenApi('post', '/users/me/presence', body);
      expect(Object.keys(body).sort()).toEqual(['msg', 'presence_last_update_id', 'presences', 'result', 'server_timestamp']);
      const mine = body.presences![member.email] as Record<string, Record<string, unknown>>;
      expect(mine.aggregated).toEqual({ client: 'website', status: 'active', timestamp: expect.any(Number) });
      expect(mine.website).toEqual({ client: 'website', status: 'active', timestamp: mine.aggregated.timestamp, pushable: false });
      expect(mine.aggregated.timestamp as number).toBeGreaterThanOrEqual(before);
      expect(body.server_timestamp).toBeGreaterThanOrEqual(before);

      const event = await thePresenceEvent();
      expect(event.realmId).toBe(realmId);
      expect([...event.users].sort((a, b) => a - b)).toEqual(everyone);
      const at = mine.aggregated.timestamp;
      expect(event.event).toEqual({
        type: 'presence',
        user_id: member.id,
        email: member.email,
        server_timestamp: expect.any(Number),
        presence: { website: { client: 'website', status: 'active', timestamp: at, pushable: false } },
        presences: { [String(member.id)]: { active_timestamp: at, idle_timestamp: at } },
      });
    });

    it('answers the modern format by user id with last_update_id, and only what changed after it', async () => {
      await report(admin);
      const first = expectSuccess(await report(member, { last_update_id: -1 }));
      expectMatchesOpenApi('post', '/users/me/presence', first);
      expect(first.presences![String(admin.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
      expect(first.presences![String(member.id)]).toBeDefined();
      const seen = first.presence_last_update_id!;
      expect(seen).toBeGreaterThan(0);

      // Nothing new: the same id and no entries.
      const again = expectSuccess(await report(member, { last_update_id: seen }));
      expect(again.presences).toEqual({});
      expect(again.presence_last_update_id).toBe(seen);

      // Another user's first report is new.
      await forget(guest);
      await report(guest, { status: 'idle' });
      const next = expectSuccess(await report(member, { last_update_id: seen }));
      expect(Object.keys(next.presences!)).toEqual([String(guest.id)]);
      expect(next.presence_last_update_id).toBeGreaterThan(seen);
    });

    it('answers the modern format with slim_presence', async () => {
      await report(admin);
      const body = expectSuccess(await report(member, { slim_presence: true }));
      expectMatchesOpenApi('post', '/users/me/presence', body);
      expect(body.presences![String(admin.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
      expect(body.presences![admin.email]).toBeUndefined();
    });

    it('answers nothing but success with ping_only, and still records the report', async () => {
      await forget(other);
      const body = expectSuccess(await report(other, { ping_only: true, status: 'idle' }));
      expectMatchesOpenApi('post', '/users/me/presence', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      const seen = expectSuccess(await report(member, { last_update_id: -1 })).presences!;
      expect(seen[String(other.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
      await thePresenceEvent();
    });

    it('announces a user coming back online, not one still online, and shows an idle report as idle', async () => {
      const now = nowSeconds();
      await storeAt(other, now - 600, now - 600);
      expectSuccess(await report(other, { ping_only: true }));
      const event = await thePresenceEvent();
      expect(event.event.user_id).toBe(other.id);
      // other's email is hidden from everyone: the event names the dummy address.
      expect(event.event.email).toBe(`user${other.id}@${subdomain}.testserver.local`);
      events.clear();

      expectSuccess(await report(other, { ping_only: true }));
      await expectNoPresenceEvent();

      // Idle after a long absence: connected now, active long ago; no event (Zulip announces active reports only).
      await storeAt(other, now - 600, now - 600);
      expectSuccess(await report(other, { ping_only: true, status: 'idle' }));
      await expectNoPresenceEvent();
      const legacy = expectSuccess(await report(member)).presences![`user${other.id}@${subdomain}.testserver.local`];
      expect(legacy).toMatchObject({ aggregated: { status: 'idle', timestamp: expect.any(Number) } });
      expect((legacy as { aggregated: { timestamp: number } }).aggregated.timestamp).toBeGreaterThanOrEqual(now);
    });

    it('records nothing and announces nothing for a user who hides their presence', async () => {
      expectSuccess(await report(hidden));
      await expectNoPresenceEvent();
      const body = expectSuccess(await report(member, { last_update_id: -1 }));
      expect(body.presences![String(hidden.id)]).toBeUndefined();
      expect(await redis.hget(`presence:{${realmId}}`, String(hidden.id))).toBeNull();
    });

    it('stops showing a user who turns presence off, and shows them again when they turn it on', async () => {
      await report(guest);
      await factory.userSettings(guest, { presence_enabled: false });
      try {
        expect(expectSuccess(await report(member, { last_update_id: -1 })).presences![String(guest.id)]).toBeUndefined();
        expect(expectSuccess(await realmPresence(member)).presences![guest.email]).toBeUndefined();
        expectError(await userPresence(member, guest.id), 400, 'BAD_REQUEST', `No presence data for ${guest.id}`);
      } finally {
        await factory.userSettings(guest, { presence_enabled: true });
      }
      expect(expectSuccess(await report(member, { last_update_id: -1 })).presences![String(guest.id)]).toBeDefined();
    });

    it('tells the organization at once when a user turns presence off (an old idle entry) and on (active now)', async () => {
      await report(guest);
      events.clear();
      expectSuccess(await system.api.post('/users/me/status', { away: 'true' }, as(guest)));
      try {
        const off = await thePresenceEvent();
        expect([...off.users].sort((a, b) => a - b)).toEqual(everyone);
        const offline = (off.event.presences as Record<string, { active_timestamp: number; idle_timestamp: number }>)[String(guest.id)];
        expect(nowSeconds() - offline.idle_timestamp).toBeGreaterThanOrEqual(260);
        expect(nowSeconds() - offline.idle_timestamp).toBeLessThan(275);
        // Never active since: the joining time stands for it, as in Zulip.
        const joined = (await system.db.user.findUniqueOrThrow({ where: { id: guest.id } })).dateJoined;
        expect(offline.active_timestamp).toBe(Math.floor(joined.getTime() / 1000));
        expectEventMatchesOpenApi(off.event);
        expect(expectSuccess(await report(member, { last_update_id: -1 })).presences![String(guest.id)]).toBeUndefined();
        events.clear();
      } finally {
        expectSuccess(await system.api.post('/users/me/status', { away: 'false' }, as(guest)));
      }
      const on = await thePresenceEvent();
      const back = (on.event.presences as Record<string, { active_timestamp: number; idle_timestamp: number }>)[String(guest.id)];
      expect(nowSeconds() - back.active_timestamp).toBeLessThan(5);
      expect(back.idle_timestamp).toBe(back.active_timestamp);
      expect(expectSuccess(await report(member, { last_update_id: -1 })).presences![String(guest.id)]).toEqual(back);
    });

    it('limits a first fetch by history_limit_days, and returns nothing for 0', async () => {
      const now = nowSeconds();
      await storeAt(quiet, now - 3 * 86400, now - 3 * 86400);
      try {
        const week = expectSuccess(await report(member, { last_update_id: -1, history_limit_days: 7 }));
        expect(week.presences![String(quiet.id)]).toEqual({ active_timestamp: now - 3 * 86400, idle_timestamp: now - 3 * 86400 });
        const day = expectSuccess(await report(member, { last_update_id: -1, history_limit_days: 1 }));
        expect(day.presences![String(quiet.id)]).toBeUndefined();
        const none = expectSuccess(await report(member, { last_update_id: -1, history_limit_days: 0 }));
        expect(none.presences).toEqual({});
        expect(none.presence_last_update_id).toBe(-1);
        // Incremental fetches are not limited by time.
        const incremental = expectSuccess(await report(member, { last_update_id: week.presence_last_update_id! - 1, history_limit_days: 1 }));
        expect(incremental.presence_last_update_id).toBe(week.presence_last_update_id);
      } finally {
        await forget(quiet);
      }
    });

    it.each<[string, Form, string]>([
      ['an unknown status', { status: 'away' }, 'Invalid status: away'],
      ['a non-boolean ping_only', { ping_only: 'often' }, 'ping_only is not valid JSON'],
      ['a non-JSON last_update_id', { last_update_id: 'x' }, 'last_update_id is not valid JSON'],
      ['a non-integer last_update_id', { last_update_id: '1.5' }, 'last_update_id is not an integer'],
      ['a non-integer history_limit_days', { history_limit_days: '1.5' }, 'history_limit_days is not an integer'],
      ['an oversized status', { status: 'a'.repeat(100_000) }, `Invalid status: ${'a'.repeat(100_000)}`],
    ])('refuses %s and records nothing', async (_name, form, msg) => {
      await forget(admin);
      const res = await report(admin, form);
      expectError(res, 400, 'BAD_REQUEST', msg);
      expectNoInternals(res);
      expect(await redis.hget(`presence:{${realmId}}`, String(admin.id))).toBeNull();
    });

    it('refuses a request without status', async () => {
      expectError(await system.api.post('/users/me/presence', {}, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'status' argument", {
        var_name: 'status',
      });
    });

    it('refuses bots', async () => {
      expectError(await report(bot), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    });

    it('refuses callers without valid credentials for the organization', async () => {
      await expectCallersRefused(({ subdomain: sub, auth }) => system.api.post('/users/me/presence', { status: 'active' }, { subdomain: sub, auth }), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });

    it('announces nothing in an organization of more than 100 active users, and still records', async () => {
      const large = await factory.organization({ subdomain: 'presence-large' });
      await system.db.user.createMany({
        data: Array.from({ length: 100 }, (_, i) => ({ realmId: large.id, deliveryEmail: `crowd-${i}@large.test`, fullName: `Crowd ${i}`, role: Role.MEMBER })),
      });
      const reporter = await factory.user(large);
      expectSuccess(await report(reporter, {}, 'presence-large'));
      await expectNoPresenceEvent();
      const seen = expectSuccess(await report(reporter, { last_update_id: -1 }, 'presence-large'));
      expect(Object.keys(seen.presences!)).toEqual([String(reporter.id)]);
    });

    it('answers thousands of changed users in one incremental read (more than a Lua unpack takes)', async () => {
      const huge = await factory.organization({ subdomain: 'presence-huge' });
      for (const batch of [0, 1]) {
        await system.db.user.createMany({
          data: Array.from({ length: 4500 }, (_, i) => ({ realmId: huge.id, deliveryEmail: `many-${batch}-${i}@huge.test`, fullName: `Many ${i}`, role: Role.MEMBER })),
        });
      }
      const reporter = await factory.user(huge);
      const { presence_last_update_id: start } = expectSuccess(await report(reporter, { last_update_id: -1 }, 'presence-huge'));
      const many = await system.db.user.findMany({ where: { realmId: huge.id, id: { not: reporter.id } }, select: { id: true } });
      const now = nowSeconds();
      const pipeline = redis.pipeline();
      many.forEach(({ id }, i) => {
        pipeline.hset(`presence:{${huge.id}}`, String(id), `${now},${now},${start! + 1 + i}`);
        pipeline.zadd(`presence:{${huge.id}}:ids`, start! + 1 + i, String(id));
      });
      pipeline.set(`presence:{${huge.id}}:seq`, start! + many.length);
      await pipeline.exec();
      const body = expectSuccess(await report(reporter, { last_update_id: start! }, 'presence-huge'));
      expect(Object.keys(body.presences!)).toHaveLength(9000);
      expect(body.presence_last_update_id).toBe(start! + 9000);
    });

    it('never shows one organization the presence of another', async () => {
      await report(member);
      const body = expectSuccess(await report(outsider, { last_update_id: -1 }, outsiderSubdomain));
      expect(Object.keys(body.presences!)).toEqual([String(outsider.id)]);
    });
  });

  describe('GET /realm/presence', () => {
    it('answers the legacy format by email, active humans only, without presence_last_update_id', async () => {
      await report(member);
      await report(admin);
      const body = expectSuccess(await realmPresence(guest));
      expectMatchesOpenApi('get', '/realm/presence', body);
      expect(Object.keys(body).sort()).toEqual(['msg', 'presences', 'result', 'server_timestamp']);
      expect(body.presences![member.email]).toMatchObject({ aggregated: { client: 'website', status: 'active' } });
      expect(body.presences![admin.email]).toBeDefined();
      expect(body.presences![hidden.email]).toBeUndefined();
    });

    it('leaves out deactivated users', async () => {
      const leaving = await factory.user({ id: realmId }, { fullName: 'Leaving Soon' });
      await report(leaving);
      expect(expectSuccess(await realmPresence(member)).presences![leaving.email]).toBeDefined();
      await system.db.user.update({ where: { id: leaving.id }, data: { isActive: false } });
      expect(expectSuccess(await realmPresence(member)).presences![leaving.email]).toBeUndefined();
      everyone = everyone.filter((id) => id !== leaving.id);
    });

    it('refuses callers without valid credentials for the organization', async () => {
      await expectCallersRefused(({ subdomain: sub, auth }) => system.api.get('/realm/presence', {}, { subdomain: sub, auth }), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET /users/{user_id_or_email}/presence', () => {
    it('shows a user by id, dummy address or visible address: website and aggregated, without client or pushable', async () => {
      await report(admin);
      for (const who of [admin.id, admin.email, `user${admin.id}@${subdomain}.testserver.local`]) {
        const body = expectSuccess(await userPresence(member, who));
        expectMatchesOpenApi('get', '/users/{user_id_or_email}/presence', body);
        expect(body.presence).toEqual({
          website: { status: 'active', timestamp: expect.any(Number) },
          aggregated: { status: 'active', timestamp: expect.any(Number) },
        });
      }
    });

    it('says offline in aggregated once the data is too old', async () => {
      const long = nowSeconds() - 3600;
      await storeAt(quiet, long, long);
      try {
        const body = expectSuccess(await userPresence(member, quiet.id));
        expect(body.presence).toEqual({ website: { status: 'idle', timestamp: long }, aggregated: { status: 'offline', timestamp: long } });
      } finally {
        await forget(quiet);
      }
    });

    it.each<[string, () => string | number, () => string]>([
      ['no data', () => quiet.id, () => `No presence data for ${quiet.id}`],
      ['a hidden presence', () => hidden.id, () => `No presence data for ${hidden.id}`],
      ['an unknown id', () => 999_999_999, () => 'No such user'],
      ['an id too large to be stored', () => '99999999999999999999', () => 'No such user'],
      ['a deactivated user', () => deactivated.id, () => 'No such user'],
      ['a bot', () => bot.id, () => 'No such user'],
      ['a user of another organization', () => outsider.id, () => 'No such user'],
      ['an address hidden from the caller', () => other.email, () => 'No such user'],
      ['an unknown address', () => 'nobody@nowhere.test', () => 'No such user'],
      ['a negative id', () => -5, () => 'No such user'],
      ['an oversized address', () => `${'a'.repeat(5000)}@example.test`, () => 'No such user'],
      ['a dummy address of another host', () => `user${admin.id}@elsewhere.test`, () => 'No such user'],
    ])('refuses %s', async (_name, who, msg) => {
      const res = await userPresence(member, who());
      expectError(res, 400, 'BAD_REQUEST', msg());
      expectNoInternals(res);
    });

    it('refuses callers without valid credentials for the organization', async () => {
      await expectCallersRefused(({ subdomain: sub, auth }) => system.api.get(`/users/${member.id}/presence`, {}, { subdomain: sub, auth }), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('presence events in queues', () => {
    it('reach a queue in the legacy format, or the modern one with simplified_presence_events', async () => {
      const legacy = await EventQueueClient.register(system.api, as(owner), { event_types: ['presence'] });
      const modern = await EventQueueClient.register(system.api, as(owner), {
        event_types: ['presence'],
        client_capabilities: { simplified_presence_events: true },
      });
      await forget(guest);
      await report(guest);
      const [old] = await legacy.waitFor('presence');
      const [slim] = await modern.waitFor('presence');
      expect(Object.keys(old).sort()).toEqual(['email', 'id', 'presence', 'server_timestamp', 'type', 'user_id']);
      expect(old).toMatchObject({ type: 'presence', user_id: guest.id, email: guest.email });
      expect(slim).toEqual({ id: slim.id, type: 'presence', presences: { [String(guest.id)]: { active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) } } });
      const { id: _a, ...oldEvent } = old;
      const { id: _b, ...slimEvent } = slim;
      expectEventMatchesOpenApi(oldEvent);
      expectEventMatchesOpenApi(slimEvent);
    });
  });

  describe('POST /register', () => {
    it('serves the organization’s presence in the format slim_presence asks for, with the newest update id', async () => {
      await report(admin);
      const body = expectSuccess(await system.api.post<PresenceBody>('/register', { fetch_event_types: JSON.stringify(['presence']) }, as(member)));
      expect(body.presences![admin.email]).toMatchObject({ aggregated: { client: 'website' } });
      expect(body.presences![hidden.email]).toBeUndefined();
      expect(body.presence_last_update_id).toBeGreaterThan(0);
      expect(body.server_timestamp).toBeGreaterThan(0);

      const slim = expectSuccess(
        await system.api.post<PresenceBody>('/register', { fetch_event_types: JSON.stringify(['presence']), slim_presence: 'true' }, as(member)),
      );
      expectMatchesOpenApi('post', '/register', slim);
      expect(slim.presences![String(admin.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
      // The same as an incremental fetch from -1.
      const fetched = expectSuccess(await report(member, { last_update_id: -1 }));
      expect(fetched.presence_last_update_id).toBeGreaterThanOrEqual(slim.presence_last_update_id!);
    });

    it('serves nothing with presence_history_limit_days 0', async () => {
      const body = expectSuccess(
        await system.api.post<PresenceBody>('/register', { fetch_event_types: JSON.stringify(['presence']), presence_history_limit_days: 0 }, as(member)),
      );
      expect(body.presences).toEqual({});
      expect(body.presence_last_update_id).toBe(-1);
    });
  });

  describe('durability', () => {
    it('flushes the live presence to Postgres, and reads it back when Redis lost it, with later update ids', async () => {
      await report(owner);
      const { presence_last_update_id: before } = expectSuccess(await report(member, { last_update_id: -1 }));
      const live = (await redis.hget(`presence:{${realmId}}`, String(owner.id)))!.split(',').map(Number);
      let row = await system.db.userPresence.findUnique({ where: { userId: owner.id } });
      for (let i = 0; i < 50 && Number(row?.lastUpdateId ?? 0) < live[2]; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        row = await system.db.userPresence.findUnique({ where: { userId: owner.id } });
      }
      expect(row).toMatchObject({ realmId, lastUpdateId: BigInt(live[2]) });
      expect(row!.lastConnectedTime.getTime() / 1000).toBe(live[1]);
      expect(row!.lastActiveTime!.getTime() / 1000).toBe(live[0]);

      await system.deleteRedisKeys(`presence:{${realmId}}`);
      const restored = expectSuccess(await report(member, { last_update_id: -1, ping_only: false }));
      expect(restored.presences![String(owner.id)]).toEqual({ active_timestamp: live[0], idle_timestamp: live[1] });
      await forget(guest);
      await report(guest);
      const after = expectSuccess(await report(member, { last_update_id: before! }));
      expect(Object.keys(after.presences!)).toContain(String(guest.id));
      expect(after.presence_last_update_id).toBeGreaterThan(before!);
    });
  });
});

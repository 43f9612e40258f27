import { Messaging } from '@teamchat/contracts';
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
  type TestUser,
} from '@teamchat/testing';
import { Queue } from 'bullmq';

const DELETED = 'event.messaging.messages_deleted.v1';
const CHANNEL_CHANGED = 'event.messaging.channel_changed.v1';
const USER_TOPIC = 'event.messaging.user_topic_changed.v1';

interface ClientEvent<E = Record<string, unknown>> {
  realmId: number;
  users: number[];
  event: E;
}
interface DeleteEvent {
  type: 'delete_message';
  message_ids: number[];
  message_type: string;
  stream_id: number;
  topic: string;
}

/**
 * The request waits for its job as long as the NATS request timeout allows, less 2 s: a 3 s
 * timeout gives a 1 s budget, so a large topic answers `complete: false` quickly.
 */
const NATS_REQUEST_TIMEOUT_MS = 3000;

describe('POST /streams/{stream_id}/delete_topic', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, other: TestUser;
  let deactivatedAdmin: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  let ownersOnly: { id: number }, archived: { id: number }, foreign: { id: number };
  let queue: Queue;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const deleteTopic = (user: TestUser, streamId: number | string, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post<{ complete: boolean }>(`/streams/${streamId}/delete_topic`, form as never, as(user, sub));
  const remaining = (ids: number[]) => system.db.message.count({ where: { id: { in: ids } } });
  const expectEventMatchesOpenApi = (event: object) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const deleteEvents = () => events.of<ClientEvent<DeleteEvent>>(DELETED);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A channel with some subscribers; `ids` of its messages come from `messages` or `bulkTopic`. */
  const channel = (name: string, subscribers: TestUser[], input: { inviteOnly?: boolean } = {}) =>
    factory.channel({ id: realmId }, { name, subscribers, ...input });

  /** `count` messages in one topic written by SQL (a UserMessage row per subscriber), oldest first. */
  async function bulkTopic(streamId: number, sender: TestUser, topic: string, count: number): Promise<number[]> {
    const rows = await system.db.$queryRaw<{ id: number }[]>`
      INSERT INTO messages (realm_id, sender_id, stream_id, topic, content, rendered_content)
      SELECT ${realmId}, ${sender.id}, ${streamId}, ${topic}, 'bulk ' || g, '<p>bulk ' || g || '</p>'
      FROM generate_series(1, ${count}::int) g ORDER BY g
      RETURNING id`;
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    await system.db.$executeRaw`
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT s.user_id, m.id, CASE WHEN s.user_id = ${sender.id} THEN 1 ELSE 0 END
      FROM messages m JOIN subscriptions s ON s.stream_id = m.stream_id AND s.active
      WHERE m.id = ANY(${ids}::int[])`;
    await system.db.$executeRaw`
      UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE stream_id = ${streamId}) WHERE id = ${streamId}`;
    return ids;
  }

  /** Repeats the request until it answers complete, as a client does; the answers, in order. */
  async function deleteUntilComplete(user: TestUser, streamId: number, topic: string, timeoutMs = 90_000): Promise<boolean[]> {
    const answers: boolean[] = [];
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const res = await deleteTopic(user, streamId, { topic_name: topic });
      if (res.status === 503) continue; // messaging restarting
      answers.push(expectSuccess(res).complete);
      if (answers[answers.length - 1]) return answers;
    }
    throw new Error(`Topic deletion did not complete within ${timeoutMs} ms: ${JSON.stringify(answers)}`);
  }

  /** The topic-deletion jobs BullMQ holds (queued, running or handed back). */
  const pendingJobs = async () => queue.getJobs(['active', 'waiting', 'delayed', 'prioritized', 'paused']);

  async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(50);
    }
  }

  const messagingReady = async () => {
    try {
      return (await fetch(`http://127.0.0.1:${system.ports.messaging}/health/ready`)).status === 200;
    } catch {
      return false;
    }
  };

  /** Every id announced deleted, each once, and only ids of `ids`. */
  function expectEachAnnouncedOnce(ids: number[]): number[] {
    const announced = deleteEvents().flatMap((e) => e.event.message_ids);
    expect(new Set(announced).size).toBe(announced.length);
    const known = new Set(ids);
    expect(announced.filter((id) => !known.has(id))).toEqual([]);
    return announced;
  }

  beforeAll(async () => {
    system = await TestSystem.start({ env: { NATS_REQUEST_TIMEOUT_MS: String(NATS_REQUEST_TIMEOUT_MS) } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'deletion' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Mo Moderator' });
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    deactivatedAdmin = await factory.user(org.realm, { role: Role.ADMINISTRATOR, fullName: 'Gone Admin', isActive: false });
    ownersOnly = await channel('owners only', [owner], { inviteOnly: true });
    await factory.channelMessages(owner, ownersOnly, 'secret plans', 1);
    archived = await channel('old', [admin, member]);
    await factory.channelMessages(member, archived, 'old news', 1);
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreign = await factory.channel(elsewhere, { name: 'general', subscribers: [outsider] });
    await factory.channelMessages(outsider, foreign, 'abroad', 1);
    const redis = new URL(system.env.REDIS_URL);
    queue = new Queue(Messaging.TOPIC_DELETION_QUEUE, {
      connection: { host: redis.hostname, port: Number(redis.port || 6379), maxRetriesPerRequest: null },
      prefix: `${system.env.REDIS_KEY_PREFIX}{bull}`,
    });
    events = await system.recordEvents();
  });
  afterAll(async () => {
    await queue?.close();
    await system.stop();
  });
  beforeEach(() => events.clear());

  describe('deleting a topic', () => {
    it('deletes every message of the topic whatever its case, tells everyone who had them, and answers complete', async () => {
      // The deactivated subscriber is not told.
      const lounge = await channel('lounge', [member, other, admin, deactivatedAdmin]);
      const kept = await factory.channelMessages(member, lounge, 'kept', 2);
      const doomed = [...(await factory.channelMessages(member, lounge, 'Doomed', 3)), ...(await factory.channelMessages(other, lounge, 'DOOMED', 2))];

      const res = await deleteTopic(admin, lounge.id, { topic_name: 'doomed' });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/streams/{stream_id}/delete_topic', body);
      expect(body).toEqual({ result: 'success', msg: '', complete: true });

      expect(await remaining(doomed)).toBe(0);
      expect(await system.db.userMessage.count({ where: { messageId: { in: doomed } } })).toBe(0);
      expect(await remaining(kept)).toBe(2);
      expect(await system.db.userMessage.count({ where: { messageId: { in: kept } } })).toBe(8);

      const [event] = await events.waitFor<ClientEvent<DeleteEvent>>(DELETED);
      expect(event).toEqual({
        realmId,
        users: [admin.id, member.id, other.id].sort((a, b) => a - b),
        event: { type: 'delete_message', message_ids: doomed, message_type: 'stream', stream_id: lounge.id, topic: 'DOOMED' },
      });
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(DELETED)).toHaveLength(1);
      // The channel's oldest message is in another topic: first_message_id stays.
      expect(events.of(CHANNEL_CHANGED)).toEqual([]);
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: lounge.id } })).firstMessageId).toBe(kept[0]);
    });

    it('reaches each queue in the form it asked for: bulk with bulk_message_deletion, else one event per message', async () => {
      const patio = await channel('patio', [member, admin]);
      const gone = await factory.channelMessages(member, patio, 'gone', 2);
      const register = (capabilities: Record<string, boolean>) =>
        EventQueueClient.register(system.api, as(member), { event_types: ['delete_message'], client_capabilities: capabilities });
      const [bulk, single] = await Promise.all([register({ bulk_message_deletion: true }), register({})]);

      expect(expectSuccess(await deleteTopic(admin, patio.id, { topic_name: 'gone' })).complete).toBe(true);
      const common = { type: 'delete_message', message_type: 'stream', stream_id: patio.id, topic: 'gone' };
      const [bulkEvent] = await bulk.waitFor('delete_message');
      expect(bulkEvent).toEqual({ id: 0, ...common, message_ids: gone });
      const singles = await single.waitFor('delete_message', 2);
      expect(singles).toEqual(gone.map((id, i) => ({ id: i, ...common, message_id: id })));
      for (const event of [bulkEvent, ...singles]) expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [event] });
    });

    it('moves the channel’s first_message_id on when its oldest message goes, and says so', async () => {
      const annals = await channel('annals', [member, admin]);
      const first = await factory.channelMessages(member, annals, 'first', 2);
      const second = await factory.channelMessages(member, annals, 'second', 1);

      expect(expectSuccess(await deleteTopic(admin, annals.id, { topic_name: 'first' })).complete).toBe(true);
      const [changed] = await events.waitFor<ClientEvent>(CHANNEL_CHANGED);
      const users = [admin.id, member.id].sort((a, b) => a - b);
      expect(changed).toEqual({
        realmId,
        users,
        event: { type: 'stream', op: 'update', stream_id: annals.id, name: 'annals', property: 'first_message_id', value: second[0] },
      });
      expectEventMatchesOpenApi(changed.event);
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: annals.id } })).firstMessageId).toBe(second[0]);
      expect(deleteEvents().map((e) => e.event.message_ids)).toEqual([first]);

      events.clear();
      expect(expectSuccess(await deleteTopic(admin, annals.id, { topic_name: 'second' })).complete).toBe(true);
      const [emptied] = await events.waitFor<ClientEvent>(CHANNEL_CHANGED);
      expect(emptied.event).toMatchObject({ property: 'first_message_id', value: null });
      expectEventMatchesOpenApi(emptied.event);
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: annals.id } })).firstMessageId).toBeNull();
    });

    it('deletes newest first in batches of 100, one transaction and one event per batch', async () => {
      const archive = await channel('archive', [member, other]);
      const ids = await bulkTopic(archive.id, member, 'heap', 250);
      await deleteUntilComplete(admin, archive.id, 'heap');
      expect(await remaining(ids)).toBe(0);
      const batches = (await events.waitFor<ClientEvent<DeleteEvent>>(DELETED, 3)).map((e) => e.event.message_ids);
      expect(batches).toEqual([ids.slice(150), ids.slice(50, 150), ids.slice(0, 50)]);
      expect(await events.settle(DELETED)).toHaveLength(3);
      // Each batch moved first_message_id only once it reached the oldest message.
      const changes = events.of<ClientEvent>(CHANNEL_CHANGED);
      expect(changes.map((e) => e.event.value)).toEqual([null]);
    });

    it('resets the topic’s visibility policies once its messages are gone, and only that topic’s', async () => {
      const club = await channel('club', [member, other, admin]);
      await factory.channelMessages(other, club, 'Noisy', 2);
      await factory.channelMessages(other, club, 'calm', 1);
      await system.db.userTopic.createMany({
        data: [
          { userId: deactivatedAdmin.id, streamId: club.id, topicName: 'noisy', visibilityPolicy: 1 },
          { userId: member.id, streamId: club.id, topicName: 'Noisy', visibilityPolicy: 1 },
          { userId: other.id, streamId: club.id, topicName: 'NOISY', visibilityPolicy: 3 },
          { userId: admin.id, streamId: club.id, topicName: 'calm', visibilityPolicy: 1 },
        ],
      });
      expect(expectSuccess(await deleteTopic(admin, club.id, { topic_name: 'noisy' })).complete).toBe(true);

      // Every row of the topic goes, the deactivated user's too; only active users are told.
      const rows = await system.db.userTopic.findMany({ where: { streamId: club.id } });
      expect(rows.map((row) => [row.userId, row.topicName, row.visibilityPolicy])).toEqual([[admin.id, 'calm', 1]]);
      const resets = (await events.waitFor<ClientEvent>(USER_TOPIC, 2)).sort((a, b) => a.users[0] - b.users[0]);
      expect(resets.map((e) => e.users)).toEqual([[member.id], [other.id]].sort((a, b) => a[0] - b[0]));
      for (const reset of resets) {
        expect(reset.event).toEqual({
          type: 'user_topic',
          stream_id: club.id,
          topic_name: 'noisy',
          last_updated: expect.any(Number),
          visibility_policy: 0,
        });
        expect(Math.abs((reset.event.last_updated as number) - Date.now() / 1000)).toBeLessThan(60);
        expectEventMatchesOpenApi(reset.event);
      }
      expect(await events.settle(USER_TOPIC)).toHaveLength(2);
    });

    it.each(['general chat', '(no topic)', ''])('takes %j for the empty topic', async (name) => {
      const plaza = await channel(`plaza ${name || 'empty'}`, [member, admin]);
      const unnamed = await factory.channelMessages(member, plaza, '', 2);
      const named = await factory.channelMessages(member, plaza, 'general chat!', 1);
      expect(expectSuccess(await deleteTopic(admin, plaza.id, { topic_name: name })).complete).toBe(true);
      expect(await remaining(unnamed)).toBe(0);
      expect(await remaining(named)).toBe(1);
      const [event] = await events.waitFor<ClientEvent<DeleteEvent>>(DELETED);
      expect(event.event).toMatchObject({ message_ids: unnamed, topic: '' });
    });

    it('with protected history deletes only what the administrator may see, and keeps the policies of those who still have messages', async () => {
      const vault = await channel('vault', [member], { inviteOnly: true });
      const unseen = await factory.channelMessages(member, vault, 'plans', 1);
      await factory.subscribe(admin, vault);
      const seen = await factory.channelMessages(member, vault, 'plans', 2);
      await system.db.userTopic.createMany({
        data: [
          { userId: member.id, streamId: vault.id, topicName: 'plans', visibilityPolicy: 1 },
          { userId: admin.id, streamId: vault.id, topicName: 'plans', visibilityPolicy: 3 },
        ],
      });

      expect(expectSuccess(await deleteTopic(admin, vault.id, { topic_name: 'plans' })).complete).toBe(true);
      expect(await remaining(unseen)).toBe(1);
      expect(await remaining(seen)).toBe(0);
      const [event] = await events.waitFor<ClientEvent<DeleteEvent>>(DELETED);
      expect(event.users).toEqual([admin.id, member.id].sort((a, b) => a - b));
      expect(event.event.message_ids).toEqual(seen);
      expect((await system.db.userTopic.findMany({ where: { streamId: vault.id } })).map((row) => row.userId)).toEqual([member.id]);
      const resets = await events.waitFor<ClientEvent>(USER_TOPIC);
      expect(resets.map((e) => e.users)).toEqual([[admin.id]]);
      // The channel's oldest message (unseen) stays.
      expect(events.of(CHANNEL_CHANGED)).toEqual([]);
    });

    it('answers complete for a topic without messages and deletes nothing', async () => {
      const hall = await channel('hall', [member, admin]);
      const ids = await factory.channelMessages(member, hall, 'present', 2);
      expect(expectSuccess(await deleteTopic(owner, hall.id, { topic_name: 'absent' }))).toEqual({ result: 'success', msg: '', complete: true });
      // Longer than any topic can be: nothing matches, nothing is refused.
      expect(expectSuccess(await deleteTopic(owner, hall.id, { topic_name: 'present'.repeat(20) })).complete).toBe(true);
      expect(await remaining(ids)).toBe(2);
      expect(await events.settle(DELETED)).toEqual([]);
    });

    it('lets an owner delete a topic too', async () => {
      const den = await channel('den', [owner, member]);
      const ids = await factory.channelMessages(member, den, 'gone', 2);
      expect(expectSuccess(await deleteTopic(owner, den.id, { topic_name: 'gone' })).complete).toBe(true);
      expect(await remaining(ids)).toBe(0);
    });
  });

  describe('who may delete, and what', () => {
    let room: { id: number };
    let ids: number[];

    beforeAll(async () => {
      room = await channel('guarded', [member, guest, moderator, admin]);
      ids = await factory.channelMessages(member, room, 'precious', 3);
    });
    afterEach(async () => {
      expect(await remaining(ids)).toBe(3);
      expect(await events.settle(DELETED)).toEqual([]);
    });

    it.each([
      ['a member', () => member],
      ['a moderator', () => moderator],
      ['a guest', () => guest],
    ])('refuses %s: only administrators may delete a topic', async (_who, user) => {
      const res = await deleteTopic(user(), room.id, { topic_name: 'precious' });
      expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expectMatchesOpenApi('post', '/streams/{stream_id}/delete_topic', res.body, 400);
    });

    it('checks the role before the channel', async () => {
      expectError(await deleteTopic(member, 987654, { topic_name: 'precious' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    });

    it.each([
      ['an unknown channel', () => 987654],
      ['channel 0', () => 0],
      ['an id beyond the integer range', () => 2147483648],
      ['a private channel the administrator is not subscribed to', () => ownersOnly.id],
      ['an archived channel', () => archived.id],
      ['another organization’s channel', () => foreign.id],
    ])('refuses %s as an invalid channel', async (_what, id) => {
      const before = await system.db.message.count();
      const res = await deleteTopic(admin, id(), { topic_name: 'secret plans' });
      expectError(res, 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectNoInternals(res);
      expect(await system.db.message.count()).toBe(before);
    });

    it.each(['abc', '-1', '1.5'])('answers a stream id of %j in the path as an unknown route', async (segment) => {
      expectError(await deleteTopic(admin, segment, { topic_name: 'precious' }), 404, 'NOT_FOUND', 'Not Found');
    });

    it.each([
      [{}, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", { var_name: 'topic_name' }],
      [{ topic_name: 'pre\u0000cious' }, 'BAD_REQUEST', 'topic_name must not contain null bytes', {}],
    ])('rejects bad input %j', async (form, code, msg, extra) => {
      const res = await deleteTopic(admin, room.id, form);
      expectError(res, 400, code, msg, extra);
      expectNoInternals(res);
    });

    it('never takes the channel from the body', async () => {
      const body = expectSuccess(await deleteTopic(admin, room.id, { topic_name: 'elsewhere', stream_id: archived.id }));
      expect(body).toEqual({ result: 'success', msg: '', complete: true, ignored_parameters_unsupported: ['stream_id'] });
    });

    it('refuses callers without valid credentials', async () => {
      const path = `/streams/${room.id}/delete_topic`;
      const form = { topic_name: 'precious' };
      await expectCallersRefused((options) => system.api.post(path, form, options), {
        subdomain,
        member: admin,
        outsider,
        deactivated: deactivatedAdmin,
      });
      expectError(await deleteTopic(outsider, room.id, form, outsiderSubdomain), 400, 'BAD_REQUEST', 'Invalid channel ID');
    });
  });

  describe('a topic too large for one request', () => {
    it('answers complete: false while the job goes on, and a repeated request joins it', async () => {
      const big = await channel('big', [member, other, admin]);
      // Large enough that the job is still running when the test looks for it, even when the
      // first request's one-second budget got through much of it (20,000 once did not suffice; 30,000 stays under Postgres's 32,767 query parameters).
      const ids = await bulkTopic(big.id, member, 'everything', 30_000);

      const first = await deleteTopic(admin, big.id, { topic_name: 'everything' });
      expect(expectSuccess(first).complete).toBe(false);
      expectMatchesOpenApi('post', '/streams/{stream_id}/delete_topic', first.body);
      const left = await remaining(ids);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(ids.length); // it did make progress
      // Deletion goes on without anyone waiting.
      await waitUntil(async () => (await remaining(ids)) < left);

      // Two more requests at once, with other casings: both join the one job, none queues another.
      const jobs = await pendingJobs();
      expect(jobs.map((job) => job.name)).toEqual([Messaging.TOPIC_DELETION_JOB]);
      const [a, b] = await Promise.all([
        deleteTopic(admin, big.id, { topic_name: 'EVERYTHING' }),
        deleteTopic(admin, big.id, { topic_name: 'Everything' }),
      ]);
      expectSuccess(a);
      expectSuccess(b);
      const after = await pendingJobs();
      expect(after.length).toBeLessThanOrEqual(1);
      expect(after.filter((job) => job.id !== jobs[0].id)).toEqual([]);

      await deleteUntilComplete(admin, big.id, 'everything');
      expect(await remaining(ids)).toBe(0);
      expect(await pendingJobs()).toEqual([]);
      const batches = await events.waitFor<ClientEvent<DeleteEvent>>(DELETED, ids.length / 100, 10_000);
      expect(batches.map((e) => e.event.message_ids.length)).toEqual(Array(ids.length / 100).fill(100));
      expect(expectEachAnnouncedOnce(ids).sort((x, y) => x - y)).toEqual(ids);
    });

    it('resumes after its worker is killed mid-way, deleting every message once', async () => {
      const crash = await channel('crash', [member, admin]);
      const ids = await bulkTopic(crash.id, member, 'doomed', 8000);
      const request = deleteTopic(admin, crash.id, { topic_name: 'doomed' });
      await waitUntil(async () => (await remaining(ids)) < ids.length - 100); // a batch in

      await system.stopService('messaging', 'SIGKILL');
      const left = await remaining(ids);
      expect(left).toBeGreaterThan(0);
      await sleep(300);
      expect(await remaining(ids)).toBe(left); // nobody else is deleting
      // The request in flight gets no answer from messaging: the gateway's timeout answers. (On a
      // starved machine its one-second budget can run out first: then it said "not complete".)
      const refused = await request;
      if (refused.status === 200) expect(expectSuccess(refused).complete).toBe(false);
      else {
        expectError(refused, 503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { service: 'messaging', 'retry-after': 1 });
        expect(refused.headers.get('retry-after')).toBe('1');
      }

      await system.startService('messaging');
      await waitUntil(messagingReady);
      // The job, still marked running, is joined until BullMQ finds it stalled and resumes it.
      const answers = await deleteUntilComplete(admin, crash.id, 'doomed');
      expect(answers[answers.length - 1]).toBe(true);
      expect(await remaining(ids)).toBe(0);
      expect(await system.db.userMessage.count({ where: { messageId: { in: ids } } })).toBe(0);
      expect(await pendingJobs()).toEqual([]);
      // A batch committed just before the kill may have gone unannounced; none is announced twice.
      const announced = expectEachAnnouncedOnce(ids);
      expect(announced.length).toBeGreaterThanOrEqual(ids.length - 100);
    });

    it('on SIGTERM finishes the batch under way, hands the job back, and the next worker takes it up', async () => {
      const calm = await channel('calm', [member, admin]);
      const ids = await bulkTopic(calm.id, member, 'doomed', 8000);
      const request = deleteTopic(admin, calm.id, { topic_name: 'doomed' });
      await waitUntil(async () => (await remaining(ids)) < ids.length - 500);

      const started = Date.now();
      expect(await system.stopService('messaging')).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      // The waiting request is answered at once rather than left to its budget.
      expect(expectSuccess(await request).complete).toBe(false);
      const left = await remaining(ids);
      expect(left).toBeGreaterThan(0);
      // Back in the queue at once, not left to be found stalled.
      expect(await Promise.all((await pendingJobs()).map((job) => job.getState()))).toEqual(['waiting']);
      // Every batch that committed was announced.
      await events.waitFor(DELETED, Math.ceil((ids.length - left) / 100));

      await system.startService('messaging');
      await waitUntil(messagingReady);
      await waitUntil(async () => (await remaining(ids)) === 0, 60_000); // nobody asked again
      expect(expectSuccess(await deleteTopic(admin, calm.id, { topic_name: 'doomed' })).complete).toBe(true);
      expect(expectEachAnnouncedOnce(ids).sort((x, y) => x - y)).toEqual(ids);
    });
  });
});

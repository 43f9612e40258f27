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

interface ScheduledRecord {
  scheduled_message_id: number;
  type: string;
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

describe('scheduled messages', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realm: { id: number };
  let member: TestUser, admin: TestUser, other: TestUser, outsider: TestUser, deactivated: TestUser;
  let channel: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const schedule = (user: TestUser, form: Record<string, unknown>) =>
    system.api.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 'plans', content: 'hello later', scheduled_delivery_timestamp: inSeconds(3600), ...form } as never, as(user));
  const scheduleId = async (user: TestUser, form: Record<string, unknown> = {}) =>
    expectSuccess(await schedule(user, form)).scheduled_message_id as number;
  const list = async (user: TestUser) =>
    expectSuccess(await system.api.get<{ scheduled_messages: ScheduledRecord[] }>('/scheduled_messages', {}, as(user))).scheduled_messages;
  const messagesOf = (scheduledMessageId: number) => system.db.message.findMany({ where: { scheduledMessageId } });
  const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 15000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(100);
    }
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'sched' });
    subdomain = org.realm.subdomain;
    realm = org.realm;
    member = org.member;
    admin = org.admin;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'sched-elsewhere' }));
    channel = await factory.channel(org.realm, { name: 'planning', subscribers: [member, other] });
  });
  afterAll(() => system.stop());

  describe('POST /scheduled_messages', () => {
    it('stores a checked channel message, answers its id and tells the sender', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['scheduled_messages'] });
      const at = inSeconds(3600);
      const res = await schedule(member, { content: '**bold**', topic: 'plans', scheduled_delivery_timestamp: at });
      expectMatchesOpenApi('post', '/scheduled_messages', res.body);
      const id = expectSuccess(res).scheduled_message_id as number;
      const [event] = await queue.waitFor('scheduled_messages');
      const record = { scheduled_message_id: id, type: 'stream', to: channel.id, topic: 'plans', content: '**bold**', rendered_content: '<p><strong>bold</strong></p>', scheduled_delivery_timestamp: at, failed: false };
      expect(event).toMatchObject({ op: 'add', scheduled_messages: [record] });
      expect((await list(member)).find((m) => m.scheduled_message_id === id)).toEqual(record);
      expect(await list(other)).toEqual([]);
    });

    it('takes direct messages by user IDs and shows the other participants', async () => {
      const id = await scheduleId(member, { type: 'direct', to: JSON.stringify([other.id]), topic: undefined });
      const record = (await list(member)).find((m) => m.scheduled_message_id === id)!;
      expect(record).toMatchObject({ type: 'private', to: [other.id] });
      expect(record).not.toHaveProperty('topic');
      const toSelf = await scheduleId(member, { type: 'private', to: JSON.stringify([member.id]), topic: undefined });
      expect((await list(member)).find((m) => m.scheduled_message_id === toSelf)!.to).toEqual([member.id]);
    });

    it('refuses a time not in the future, and every error sending would give, storing nothing', async () => {
      const before = await system.db.scheduledMessage.count();
      expectError(await schedule(member, { scheduled_delivery_timestamp: inSeconds(-10) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
      expectError(await schedule(member, { to: 999999 }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '999999' does not exist", { stream_id: 999999 });
      expectError(await schedule(member, { type: 'direct', to: JSON.stringify([999999]) }), 400, 'BAD_REQUEST', 'Invalid user ID 999999');
      expectError(await schedule(member, { type: 'direct', to: JSON.stringify([deactivated.id]) }), 400, 'BAD_REQUEST', `Invalid user ID ${deactivated.id}`);
      expectError(await schedule(member, { type: 'direct', to: JSON.stringify([outsider.id]) }), 400, 'BAD_REQUEST', `Invalid user ID ${outsider.id}`);
      expectError(await schedule(member, { to: 'planning' }), 400, 'BAD_REQUEST', 'Invalid data type for channel ID');
      expectError(await schedule(member, { content: '   ' }), 400, 'BAD_REQUEST', 'Message must not be empty');
      expectError(await schedule(member, { topic: 'a\u0000b' }), 400, 'BAD_REQUEST', 'Topic must not contain null bytes');
      expect(await system.db.scheduledMessage.count()).toBe(before);
    });

    it('refuses callers who are not logged in to the organization', async () => {
      await expectCallersRefused((options) => system.api.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 't', content: 'c', scheduled_delivery_timestamp: inSeconds(60) } as never, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET, PATCH and DELETE', () => {
    it('GET lists the caller\'s own, earliest first, in the documented shape', async () => {
      const late = await scheduleId(other, { scheduled_delivery_timestamp: inSeconds(7200) });
      const early = await scheduleId(other, { scheduled_delivery_timestamp: inSeconds(3000) });
      const res = await system.api.get('/scheduled_messages', {}, as(other));
      expectMatchesOpenApi('get', '/scheduled_messages', res.body);
      expect((await list(other)).map((m) => m.scheduled_message_id)).toEqual([early, late]);
    });

    it('PATCH edits any field, checks it again and announces the update', async () => {
      const id = await scheduleId(member);
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['scheduled_messages'] });
      const at = inSeconds(5000);
      const res = await system.api.patch(`/scheduled_messages/${id}`, { content: 'edited', topic: 'new topic', scheduled_delivery_timestamp: at } as never, as(member));
      expectMatchesOpenApi('patch', '/scheduled_messages/{scheduled_message_id}', res.body);
      expectSuccess(res);
      const [event] = await queue.waitFor('scheduled_messages');
      expect(event).toMatchObject({ op: 'update', scheduled_message: { scheduled_message_id: id, content: 'edited', topic: 'new topic', scheduled_delivery_timestamp: at } });
      expectSuccess(await system.api.patch(`/scheduled_messages/${id}`, { type: 'direct', to: JSON.stringify([other.id]) } as never, as(member)));
      expect((await list(member)).find((m) => m.scheduled_message_id === id)).toMatchObject({ type: 'private', to: [other.id], content: 'edited' });
    });

    it("PATCH refuses Zulip's way, and another user's message is not found", async () => {
      const id = await scheduleId(member);
      const patch = (user: TestUser, form: Record<string, unknown>) => system.api.patch(`/scheduled_messages/${id}`, form as never, as(user));
      expectError(await patch(member, {}), 400, 'BAD_REQUEST', 'Nothing to change');
      expectError(await patch(member, { type: 'direct' }), 400, 'BAD_REQUEST', 'Recipient required when updating type of scheduled message.');
      expectError(await patch(member, { type: 'stream', to: channel.id }), 400, 'BAD_REQUEST', 'Topic required when updating scheduled message type to channel.');
      expectError(await patch(member, { scheduled_delivery_timestamp: inSeconds(-5) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
      expectError(await patch(member, { to: 999999 }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '999999' does not exist", { stream_id: 999999 });
      expectError(await patch(other, { content: 'mine now' }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      expectError(await system.api.patch('/scheduled_messages/999999', { content: 'x' } as never, as(member)), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      expect((await list(member)).find((m) => m.scheduled_message_id === id)!.content).toBe('hello later');
    });

    it('DELETE removes the owner\'s own, with a remove event; others get 404', async () => {
      const id = await scheduleId(member);
      expectError(await system.api.delete(`/scheduled_messages/${id}`, {}, as(other)), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['scheduled_messages'] });
      const res = await system.api.delete(`/scheduled_messages/${id}`, {}, as(member));
      expectMatchesOpenApi('delete', '/scheduled_messages/{scheduled_message_id}', res.body);
      expectSuccess(res);
      expect(await queue.waitFor('scheduled_messages')).toMatchObject([{ op: 'remove', scheduled_message_id: id }]);
      expectError(await system.api.delete(`/scheduled_messages/${id}`, {}, as(member)), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      await expectCallersRefused((options) => system.api.delete(`/scheduled_messages/${id}`, {}, options), { subdomain, member, outsider, deactivated });
    });

    it('POST /register serves scheduled_messages', async () => {
      const queue = await EventQueueClient.register(system.api, as(other), { fetch_event_types: JSON.stringify(['scheduled_messages']) } as never);
      expect(queue.state.scheduled_messages).toEqual(await list(other));
    });
  });

  describe('delivery', () => {
    it('sends on time through messaging, shows the sending client, and leaves the list', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['scheduled_messages', 'message'] });
      const at = inSeconds(2);
      const id = expectSuccess(
        await system.api.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 'on time', content: 'delivered', scheduled_delivery_timestamp: at } as never, {
          ...as(member),
          headers: { 'User-Agent': 'ZulipMobile/1.0' },
        } as never),
      ).scheduled_message_id as number;
      const [message] = await queue.waitFor('message', 1, 10000);
      const sent = (message as unknown as { message: { id: number; timestamp: number; client: string; content: string; subject: string } }).message;
      expect(sent).toMatchObject({ content: 'delivered', subject: 'on time', client: 'ZulipMobile' });
      expect(Date.now() / 1000 - at).toBeLessThan(2);
      expect(await messagesOf(id)).toHaveLength(1);
      await queue.waitFor('scheduled_messages', 2);
      expect(queue.received.filter((e) => e.type === 'scheduled_messages').map((e) => (e as { op?: string }).op)).toEqual(['add', 'remove']);
      expect((await list(member)).map((m) => m.scheduled_message_id)).not.toContain(id);
      expect(await system.db.scheduledMessage.findUnique({ where: { id } })).toMatchObject({ delivered: true, deliveredMessageId: sent.id });
    });

    it('fails when the channel is gone: reason stored, update event, a notice from the notification bot; an edit makes it pending again', async () => {
      const doomed = await factory.channel(realm, { name: 'doomed', subscribers: [member] });
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['scheduled_messages', 'message'] });
      const id = await scheduleId(member, { to: doomed.id, scheduled_delivery_timestamp: inSeconds(2) });
      // Archived through the API, as an administrator would (messaging learns of it from the change's event).
      expectSuccess(await system.api.delete(`/streams/${doomed.id}`, {}, as(admin)));
      const updates = await queue.waitFor('scheduled_messages', 2, 10000);
      expect(updates[1]).toMatchObject({ op: 'update', scheduled_message: { scheduled_message_id: id, failed: true } });
      const stored = await system.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
      expect(stored).toMatchObject({ failed: true, delivered: false, failureMessage: `Channel with ID '${doomed.id}' does not exist` });
      expect(await messagesOf(id)).toHaveLength(0);
      const [notice] = await queue.waitFor('message', 1, 10000);
      const dm = (notice as unknown as { message: { sender_email: string; sender_full_name: string; content: string; type: string } }).message;
      expect(dm).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot' });
      expect(dm.content).toContain('was not sent because of the following error');
      expect((await list(member)).find((m) => m.scheduled_message_id === id)!.failed).toBe(true);
      // Not retried.
      await sleep(1500);
      expect(await system.db.message.count({ where: { senderId: member.id, streamId: doomed.id } })).toBe(0);
      // Editing needs a new time, and clears `failed`.
      expectError(await system.api.patch(`/scheduled_messages/${id}`, { content: 'again' } as never, as(member)), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
      expectSuccess(await system.api.patch(`/scheduled_messages/${id}`, { to: channel.id, scheduled_delivery_timestamp: inSeconds(3600) } as never, as(member)));
      expect((await list(member)).find((m) => m.scheduled_message_id === id)!.failed).toBe(false);
    });

    it('fails when the sender lost permission to post', async () => {
      const nobody = await factory.systemGroupId(realm, 'role:nobody');
      const quiet = await factory.channel(realm, { name: 'quiet', subscribers: [member] });
      const id = await scheduleId(member, { to: quiet.id, scheduled_delivery_timestamp: inSeconds(2) });
      expectSuccess(await system.api.patch(`/streams/${quiet.id}`, { can_send_message_group: { new: nobody } } as never, as(admin)));
      await waitUntil(async () => (await system.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).failed);
      expect((await system.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).failureMessage).toBe('You do not have permission to post in this channel.');
    });

    it('becomes exactly one message when its worker is killed mid-way and it runs again', async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, (_, n) => scheduleId(member, { content: `kill ${n}`, scheduled_delivery_timestamp: inSeconds(2) })));
      // Kill the only scheduler about when the deliveries start, then bring it back.
      await sleep(Math.max(0, inSeconds(0) * 1000 + 1900 - Date.now()));
      await system.stopService('scheduler', 'SIGKILL');
      await system.startService('scheduler');
      await waitUntil(async () => (await system.db.scheduledMessage.count({ where: { id: { in: ids }, delivered: true } })) === ids.length, 60000).catch(
        async (error: Error) => {
          const states = await system.db.scheduledMessage.findMany({ where: { id: { in: ids } }, select: { id: true, delivered: true, failed: true, failureMessage: true } });
          throw new Error(`${error.message}: ${JSON.stringify(states)}\n--- scheduler log\n${system.logOf('scheduler').slice(-4000)}`);
        },
      );
      for (const id of ids) expect(await messagesOf(id)).toHaveLength(1);
    }, 120_000);

    it('becomes exactly one message with two scheduler replicas, and survives a Redis flush', async () => {
      const replica = await system.startReplica('scheduler');
      try {
        const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => scheduleId(n % 2 ? member : other, { content: `pair ${n}`, scheduled_delivery_timestamp: inSeconds(3) })));
        // Lose every job: Postgres is the truth, and a restarted replica re-creates them.
        await system.stopService('scheduler');
        await system.deleteRedisKeys('{bull}:scheduled-delivery');
        await system.startService('scheduler');
        await waitUntil(async () => (await system.db.scheduledMessage.count({ where: { id: { in: ids }, delivered: true } })) === ids.length, 60000);
        for (const id of ids) expect(await messagesOf(id)).toHaveLength(1);
      } finally {
        await system.stopService(replica);
      }
    }, 120_000);
  });
});

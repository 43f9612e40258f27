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

interface ReminderRecord {
  reminder_id: number;
  type: string;
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

describe('reminders', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmUrl: string;
  let realm: { id: number };
  let member: TestUser, other: TestUser, outsider: TestUser, deactivated: TestUser, admin: TestUser;
  let channel: { id: number; name: string };
  let secret: { id: number; name: string };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const send = async (user: TestUser, form: Record<string, unknown>) =>
    expectSuccess(await system.api.post('/messages', form as never, as(user))).id as number;
  const toChannel = (user: TestUser, content: string, topic = 'plans', to: number = channel.id) => send(user, { type: 'stream', to, topic, content });
  const direct = (user: TestUser, to: TestUser[], content: string) => send(user, { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content });
  const remind = (user: TestUser, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post('/reminders', { scheduled_delivery_timestamp: inSeconds(3600), ...form } as never, as(user, sub));
  const remindId = async (user: TestUser, form: Record<string, unknown>) => expectSuccess(await remind(user, form)).reminder_id as number;
  const list = async (user: TestUser) => expectSuccess(await system.api.get<{ reminders: ReminderRecord[] }>('/reminders', {}, as(user))).reminders;
  const stored = (id: number) => system.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
  const mention = (user: TestUser) => `@_**${user.fullName}|${user.id}**`;
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
    const org = await factory.organizationWithStaff({ subdomain: 'remind' });
    subdomain = org.realm.subdomain;
    realmUrl = `http://${subdomain}.testserver.local`;
    realm = org.realm;
    member = await factory.user(org.realm, { fullName: 'King Hamlet' });
    admin = org.admin;
    other = await factory.user(org.realm, { fullName: 'Othello' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'remind-elsewhere' }), { fullName: 'Outsider' });
    channel = await factory.channel(org.realm, { name: 'Verona', subscribers: [member, other] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [other] });
  });
  afterAll(() => system.stop());

  describe('POST /reminders', () => {
    it("stores Zulip's text about a channel message, answers its id in the documented shape and tells only the owner", async () => {
      const mine = await EventQueueClient.register(system.api, as(member), { event_types: ['reminders'] });
      const theirs = await EventQueueClient.register(system.api, as(other), { event_types: ['reminders'] });
      const messageId = await toChannel(member, 'Test message');
      const at = inSeconds(3600);
      const res = await remind(member, { message_id: messageId, scheduled_delivery_timestamp: at });
      expectMatchesOpenApi('post', '/reminders', res.body);
      const id = expectSuccess(res).reminder_id as number;
      const content =
        'You requested a reminder for the following message.\n\n' +
        `${mention(member)} [said](${realmUrl}/#narrow/channel/${channel.id}-Verona/topic/plans/near/${messageId}) in ` +
        `[#Verona > plans](#narrow/channel/${channel.id}-Verona/topic/plans/with/${messageId}):\n\`\`\`quote\nTest message\n\`\`\``;
      const row = await stored(id);
      expect(row).toMatchObject({ content, deliveryType: 2, reminderTargetMessageId: messageId, senderId: member.id, recipientIds: [member.id], type: 'private', delivered: false, failed: false });
      const [event] = await mine.waitFor('reminders');
      const record = { reminder_id: id, type: 'private', to: [member.id], content, rendered_content: row.renderedContent, scheduled_delivery_timestamp: at, failed: false, reminder_target_message_id: messageId };
      expect(event).toEqual({ id: expect.any(Number), type: 'reminders', op: 'add', reminders: [record] });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [event] });
      expect(row.renderedContent).toContain('<blockquote>');
      expect(await theirs.poll({ dontBlock: true })).toEqual([]);
    });

    it('names direct messages, notes, notes to oneself, polls and to-do lists as Zulip does', async () => {
      const dm = await direct(member, [other], 'Hello there');
      const dmUrl = `${realmUrl}/#narrow/dm/${[member.id, other.id].sort((a, b) => a - b).join(',')}/near/${dm}`;
      expect((await stored(await remindId(member, { message_id: dm, note: '\n\nCall back.  \n' }))).content).toBe(
        'You requested a reminder for the following direct message. Note:\n > Call back.\n\n' +
          `${mention(member)} [said](${dmUrl}) to ${mention(other)}:\n\`\`\`quote\nHello there\n\`\`\``,
      );
      // Received from someone else: the sender is named, the reader among the recipients.
      const received = await direct(other, [member], '/poll Lunch?\nPizza\nSalad');
      const receivedUrl = `${realmUrl}/#narrow/dm/${[member.id, other.id].sort((a, b) => a - b).join(',')}/near/${received}`;
      expect((await stored(await remindId(member, { message_id: received }))).content).toBe(
        `You requested a reminder for the following direct message.\n\n${mention(other)} [sent](${receivedUrl}) a poll to ${mention(member)}.`,
      );
      const self = await direct(member, [member], 'Buy milk');
      expect((await stored(await remindId(member, { message_id: self }))).content).toBe(
        `You requested a reminder for the following direct message.\n\nYou [sent](${realmUrl}/#narrow/dm/${member.id}/near/${self}) a note to yourself:\n\`\`\`quote\nBuy milk\n\`\`\``,
      );
      const todo = await direct(member, [member], '/todo Chores');
      expect((await stored(await remindId(member, { message_id: todo }))).content).toBe(
        `You requested a reminder for the following direct message.\n\nYou [sent](${realmUrl}/#narrow/dm/${member.id}/near/${todo}) yourself a todo list.`,
      );
      const braces = await toChannel(member, '{456}', '{789}');
      expect((await stored(await remindId(member, { message_id: braces, note: '{123}' }))).content).toBe(
        'You requested a reminder for the following message. Note:\n > {123}\n\n' +
          `${mention(member)} [said](${realmUrl}/#narrow/channel/${channel.id}-Verona/topic/.7B789.7D/near/${braces})` +
          ` in [#Verona > {789}](#narrow/channel/${channel.id}-Verona/topic/.7B789.7D/with/${braces}):\n\`\`\`quote\n{456}\n\`\`\``,
      );
    });

    it('quotes a long message cut to the message length limit, with a longer fence around fences', async () => {
      const long = await toChannel(member, 'x'.repeat(10000), 'long');
      const content = (await stored(await remindId(member, { message_id: long }))).content;
      expect([...content].length).toBe(10000);
      expect(content.endsWith('x\n[message truncated]\n```')).toBe(true);
      const fenced = await toChannel(member, '```\ncode\n```', 'fenced');
      expect((await stored(await remindId(member, { message_id: fenced }))).content).toContain('````quote\n```\ncode\n```\n````');
    });

    it("refuses a past time, a message the caller cannot read, another organization's message and a long note, storing nothing", async () => {
      const before = await system.db.scheduledMessage.count();
      const mine = await toChannel(member, 'mine');
      const hidden = await toChannel(other, 'hidden', 'secret', secret.id);
      const foreignChannel = await factory.channel({ id: outsider.realmId }, { name: 'foreign', subscribers: [outsider] });
      const foreignId = expectSuccess(
        await system.api.post('/messages', { type: 'stream', to: foreignChannel.id, topic: 't', content: 'theirs' } as never, as(outsider, 'remind-elsewhere')),
      ).id as number;
      expectError(await remind(member, { message_id: mine, scheduled_delivery_timestamp: inSeconds(-5) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
      expectError(await remind(member, { message_id: 99999999 }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await remind(member, { message_id: hidden }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await remind(member, { message_id: foreignId }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await remind(member, { message_id: mine, note: 'n'.repeat(1001) }), 400, 'BAD_REQUEST', 'Maximum reminder note length: 1000 characters');
      expectError(await remind(member, { message_id: '"5"' }), 400, 'BAD_REQUEST', 'message_id is not an integer');
      expectError(await system.api.post('/reminders', { message_id: mine } as never, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument", {
        var_name: 'scheduled_delivery_timestamp',
      });
      expect(await system.db.scheduledMessage.count()).toBe(before);
      // A note of exactly the limit is fine.
      expectSuccess(await remind(member, { message_id: mine, note: 'n'.repeat(1000) }));
    });

    it('refuses callers who are not logged in to the organization', async () => {
      const messageId = await toChannel(member, 'for callers');
      await expectCallersRefused((options) => system.api.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: inSeconds(60) } as never, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET and DELETE', () => {
    it("GET lists the caller's own undelivered reminders, earliest first, apart from scheduled messages; POST /register serves them", async () => {
      const messageId = await toChannel(other, 'listed');
      const late = await remindId(other, { message_id: messageId, scheduled_delivery_timestamp: inSeconds(7200) });
      const early = await remindId(other, { message_id: messageId, scheduled_delivery_timestamp: inSeconds(3000) });
      expectSuccess(await system.api.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 't', content: 'later', scheduled_delivery_timestamp: inSeconds(4000) } as never, as(other)));
      const res = await system.api.get('/reminders', {}, as(other));
      expectMatchesOpenApi('get', '/reminders', res.body);
      const reminders = await list(other);
      expect(reminders.map((r) => r.reminder_id)).toEqual([early, late]);
      expect(reminders[0]).toMatchObject({ type: 'private', to: [other.id], failed: false, reminder_target_message_id: messageId });
      const scheduled = expectSuccess(await system.api.get<{ scheduled_messages: { scheduled_message_id: number }[] }>('/scheduled_messages', {}, as(other))).scheduled_messages;
      expect(scheduled.map((s) => s.scheduled_message_id)).not.toContain(early);
      expect(scheduled).toHaveLength(1);
      const queue = await EventQueueClient.register(system.api, as(other), { fetch_event_types: JSON.stringify(['reminders']) } as never);
      expect(queue.state.reminders).toEqual(reminders);
      expect((await list(member)).map((r) => r.reminder_id)).not.toContain(early);
      await expectCallersRefused((options) => system.api.get('/reminders', {}, options), { subdomain, member, outsider, deactivated });
    });

    it("DELETE removes the owner's own with a remove event; another user's, a scheduled message's id and a second delete are not found", async () => {
      const messageId = await toChannel(member, 'to delete');
      const id = await remindId(member, { message_id: messageId });
      const scheduledId = expectSuccess(
        await system.api.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 't', content: 'keep', scheduled_delivery_timestamp: inSeconds(4000) } as never, as(member)),
      ).scheduled_message_id as number;
      expectError(await system.api.delete(`/reminders/${id}`, {}, as(other)), 404, 'BAD_REQUEST', 'Reminder does not exist');
      expectError(await system.api.delete(`/reminders/${scheduledId}`, {}, as(member)), 404, 'BAD_REQUEST', 'Reminder does not exist');
      expectError(await system.api.delete(`/scheduled_messages/${id}`, {}, as(member)), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      expectError(await system.api.patch(`/scheduled_messages/${id}`, { content: 'x' } as never, as(member)), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      await expectCallersRefused((options) => system.api.delete(`/reminders/${id}`, {}, options), { subdomain, member, outsider, deactivated });
      expect(await system.db.scheduledMessage.findUnique({ where: { id } })).not.toBeNull();
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['reminders'] });
      const res = await system.api.delete(`/reminders/${id}`, {}, as(member));
      expectMatchesOpenApi('delete', '/reminders/{reminder_id}', res.body);
      expectSuccess(res);
      const [event] = await queue.waitFor('reminders');
      expect(event).toEqual({ id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [event] });
      expect(await system.db.scheduledMessage.findUnique({ where: { id } })).toBeNull();
      expect(await system.db.scheduledMessage.findUnique({ where: { id: scheduledId } })).not.toBeNull();
      expectError(await system.api.delete(`/reminders/${id}`, {}, as(member)), 404, 'BAD_REQUEST', 'Reminder does not exist');
    });
  });

  describe('delivery', () => {
    it('the notification bot sends it to the owner at its time, once, and it leaves the list', async () => {
      const messageId = await toChannel(member, 'Remember me');
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['reminders', 'message'] });
      const watcher = await EventQueueClient.register(system.api, as(other), { event_types: ['message'] });
      const at = inSeconds(2);
      const id = await remindId(member, { message_id: messageId, scheduled_delivery_timestamp: at });
      // Edited before the time: the reminder quotes the message as it is when it is sent.
      expectSuccess(await system.api.patch(`/messages/${messageId}`, { content: 'Remember me, edited' } as never, as(member)));
      const [message] = await queue.waitFor('message', 1, 10000);
      const dm = (message as unknown as { message: { id: number; type: string; sender_full_name: string; content: string; display_recipient: { id: number }[] } }).message;
      expect(Date.now() / 1000).toBeGreaterThanOrEqual(at);
      expect(dm).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot' });
      expect(dm.display_recipient.map((r) => r.id)).toContain(member.id);
      expect(dm.content).toContain('You requested a reminder for the following message.');
      expect(dm.content).toContain('Remember me, edited');
      await queue.waitFor('reminders', 2);
      expect(queue.received.filter((e) => e.type === 'reminders').map((e) => (e as { op?: string }).op)).toEqual(['add', 'remove']);
      expect(await stored(id)).toMatchObject({ delivered: true, failed: false, deliveredMessageId: dm.id });
      expect(await system.db.message.count({ where: { scheduledMessageId: id } })).toBe(1);
      expect((await list(member)).map((r) => r.reminder_id)).not.toContain(id);
      // Nothing for anyone else.
      await sleep(500);
      expect((await watcher.poll({ dontBlock: true })).filter((e) => e.type === 'message')).toEqual([]);
    });

    it('keeps its scheduled text when the message is gone, and fails silently for a deactivated owner', async () => {
      const goneId = await toChannel(member, 'Soon deleted');
      const keep = await remindId(member, { message_id: goneId, scheduled_delivery_timestamp: inSeconds(2) });
      const text = (await stored(keep)).content;
      expectSuccess(await system.api.delete(`/messages/${goneId}`, {}, as(admin)));
      await waitUntil(async () => (await stored(keep)).delivered);
      const delivered = await system.db.message.findFirstOrThrow({ where: { scheduledMessageId: keep } });
      expect(delivered.content).toBe(text);

      const leaver = await factory.user(realm, { fullName: 'Leaver' });
      await factory.subscribe(leaver, channel);
      const theirs = await toChannel(leaver, 'bye');
      const doomed = expectSuccess(await remind(leaver, { message_id: theirs, scheduled_delivery_timestamp: inSeconds(2) })).reminder_id as number;
      await system.db.user.update({ where: { id: leaver.id }, data: { isActive: false } });
      await waitUntil(async () => (await stored(doomed)).failed);
      expect(await stored(doomed)).toMatchObject({ failed: true, delivered: false, failureMessage: 'Account is deactivated', deliveredMessageId: null });
      expect(await system.db.message.count({ where: { scheduledMessageId: doomed } })).toBe(0);
    });

    it('becomes exactly one message with two scheduler replicas, even after Redis lost its jobs', async () => {
      const replica = await system.startReplica('scheduler');
      try {
        const messageId = await toChannel(member, 'many');
        const ids = await Promise.all(Array.from({ length: 8 }, () => remindId(member, { message_id: messageId, scheduled_delivery_timestamp: inSeconds(3) })));
        await system.stopService('scheduler');
        await system.deleteRedisKeys('{bull}:scheduled-delivery');
        await system.startService('scheduler');
        await waitUntil(async () => (await system.db.scheduledMessage.count({ where: { id: { in: ids }, delivered: true } })) === ids.length, 60000);
        for (const id of ids) expect(await system.db.message.count({ where: { scheduledMessageId: id } })).toBe(1);
      } finally {
        await system.stopService(replica);
      }
    }, 120_000);
  });

  // This file's system runs with the server's defaults, which widgets.spec cannot (it configures BigBlueButton).
  describe('video calls with the default configuration', () => {
    it('offers Jitsi Meet at meet.jit.si and refuses BigBlueButton calls, which are not configured', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { fetch_event_types: JSON.stringify(['realm']) } as never);
      expect(queue.state).toMatchObject({
        realm_available_video_chat_providers: { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } },
        server_jitsi_server_url: 'https://meet.jit.si',
        jitsi_server_url: 'https://meet.jit.si',
      });
      expect(queue.state.realm_available_video_chat_providers).not.toHaveProperty('big_blue_button');
      expectError(await system.api.get('/calls/bigbluebutton/create', { meeting_name: 'm' } as never, as(member)), 400, 'BAD_REQUEST', 'BigBlueButton is not configured.');
    });
  });
});

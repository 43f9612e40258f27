import { Role } from '@teamchat/zulip';
import {
  EventRecorder,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type TestUser,
} from '@teamchat/testing';

const MESSAGE_SENT = 'event.messaging.message_sent.v1';
const USER_TOPIC = 'event.messaging.user_topic_changed.v1';

interface SentEvent {
  realmId: number;
  message: Record<string, unknown>;
  recipients: { id: number; flags: string[] }[];
  senderQueue?: { userId: number; queueId: string; localId: string };
}

describe('POST /messages', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let sub: string;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, friend: TestUser, quiet: TestUser;
  let outsider: TestUser;
  let general: { id: number; name: string };
  let secret: { id: number; name: string };
  let realmId: number;

  const as = (user: TestUser) => ({ auth: user, subdomain: sub });
  const send = (user: TestUser, form: Record<string, unknown>, extra: Record<string, string> = {}) =>
    system.api.post<{ id: number; automatic_new_visibility_policy?: number }>('/messages', form as never, {
      ...as(user),
      headers: extra,
    });
  const toGeneral = (user: TestUser, content: string, topic = 'lunch', extra: Record<string, unknown> = {}) =>
    send(user, { type: 'stream', to: 'general', topic, content, ...extra });
  const stored = async (id: number) => ({
    ...(await system.db.message.findUniqueOrThrow({ where: { id } })),
    recipients: await system.db.userMessage.findMany({ where: { messageId: id } }),
  });
  const sentEvent = async (id: number): Promise<SentEvent> => {
    const all = await events.waitFor<SentEvent>(MESSAGE_SENT, 1);
    const found = all.find((e) => e.message.id === id);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 300));
    return events.of<SentEvent>(MESSAGE_SENT).find((e) => e.message.id === id)!;
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'send' });
    ({ owner, admin, member, guest } = org);
    sub = org.realm.subdomain;
    realmId = org.realm.id;
    friend = await factory.user(org.realm, { fullName: 'King Hamlet' });
    quiet = await factory.user(org.realm, { fullName: 'Quiet One', settings: { automatically_follow_topics_where_mentioned: false } });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [owner, admin, member, friend, quiet] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere2' });
    outsider = await factory.user(elsewhere, { role: Role.OWNER, fullName: 'Out Sider' });
    await factory.channel(elsewhere, { name: 'foreign', subscribers: [outsider] });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());

  describe('channel messages', () => {
    it('stores the message, renders it, and answers its id', async () => {
      const res = await toGeneral(member, 'Hello **team**', 'greetings');
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/messages', body);
      const message = await stored(body.id);
      expect(message).toMatchObject({
        realmId,
        senderId: member.id,
        streamId: general.id,
        topic: 'greetings',
        content: 'Hello **team**',
        renderedContent: '<p>Hello <strong>team</strong></p>',
      });
      expect(message.recipients.map((r) => r.userId).sort((a, b) => a - b)).toEqual(
        [owner.id, admin.id, member.id, friend.id, quiet.id].sort((a, b) => a - b),
      );
      expect(await system.db.stream.findUniqueOrThrow({ where: { id: general.id } })).toMatchObject({ firstMessageId: expect.any(Number) });
    });

    it('accepts the channel by id, as a JSON string, as a one-element list, and the types channel/stream', async () => {
      for (const [type, to] of [
        ['channel', String(general.id)],
        ['stream', '"general"'],
        ['stream', JSON.stringify([general.id])],
        ['channel', ' general '],
      ]) {
        expectSuccess(await send(member, { type, to, topic: 'forms', content: 'x' }));
      }
    });

    it('accepts subject as the legacy name of topic, but not both', async () => {
      const body = expectSuccess(await send(member, { type: 'stream', to: 'general', subject: 'legacy', content: 'x' }));
      expect((await stored(body.id)).topic).toBe('legacy');
      expectError(
        await send(member, { type: 'stream', to: 'general', subject: 'a', topic: 'b', content: 'x' }),
        400,
        'REQUEST_CONFUSING_VAR',
        "Can't decide between 'topic' and 'subject' arguments",
      );
    });

    it('maps "(no topic)" and the empty-topic display name to the empty topic', async () => {
      for (const topic of ['(no topic)', 'general chat', '', '   ']) {
        const body = expectSuccess(await toGeneral(member, 'empty topic', topic));
        expect((await stored(body.id)).topic).toBe('');
      }
    });

    it('truncates a long topic and a long message as Zulip does', async () => {
      const body = expectSuccess(await toGeneral(member, 'x'.repeat(10050), 't'.repeat(70)));
      const message = await stored(body.id);
      expect(message.topic).toBe(`${'t'.repeat(57)}...`);
      expect(message.content.endsWith('\n[message truncated]')).toBe(true);
      expect([...message.content].length).toBe(10000);
    });

    it('strips trailing whitespace and leading blank lines', async () => {
      const body = expectSuccess(await toGeneral(member, '\n\n  indented\ntext  \n\n'));
      expect((await stored(body.id)).content).toBe('  indented\ntext');
    });

    it.each([
      [{ type: 'stream', to: 'general', content: 'x' }, 'Missing topic'],
      [{ type: 'stream', to: 'general', topic: 't', content: '' }, 'Message must not be empty'],
      [{ type: 'stream', to: 'general', topic: 't', content: '  \n ' }, 'Message must not be empty'],
      [{ type: 'stream', to: 'general', topic: 't', content: 'a\u0000b' }, 'Message must not contain null bytes'],
      [{ type: 'stream', to: 'general', topic: 'a\u0000b', content: 'x' }, 'Topic must not contain null bytes'],
      [{ type: 'stream', to: 'general', topic: 'bell\u0007', content: 'x' }, 'Invalid character in topic, at position 5!'],
      [{ type: 'stream', to: '[1,2]', topic: 't', content: 'x' }, 'Expected exactly one channel'],
      [{ type: 'stream', to: '{"a":1}', topic: 't', content: 'x' }, 'Invalid data type for channel'],
      [{ type: 'mail', to: 'general', topic: 't', content: 'x' }, 'Invalid type'],
      [{ type: 'stream', to: 'general', topic: 't', content: 'x', queue_id: 'q1' }, 'Missing local_id'],
      [{ type: 'stream', to: 'general', topic: 't', content: 'x', read_by_sender: 'maybe' }, 'read_by_sender is not valid JSON'],
    ])('rejects %j and stores nothing', async (form, msg) => {
      const before = await system.db.message.count();
      const res = await send(member, form);
      expectError(res, 400, 'BAD_REQUEST', msg);
      expectNoInternals(res);
      expect(await system.db.message.count()).toBe(before);
    });

    it.each(['type', 'to', 'content'])('requires %s', async (missing) => {
      const form: Record<string, unknown> = { type: 'stream', to: 'general', topic: 't', content: 'x' };
      delete form[missing];
      expectError(await send(member, form), 400, 'REQUEST_VARIABLE_MISSING', `Missing '${missing}' argument`, { var_name: missing });
    });

    it('answers STREAM_DOES_NOT_EXIST for an unknown name or id, and for another organization’s channel', async () => {
      expectError(await toGeneral(member, 'x', 't', { to: 'nowhere' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nowhere' does not exist", {
        stream: 'nowhere',
      });
      expectError(await toGeneral(member, 'x', 't', { to: '<b>' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel '&lt;b&gt;' does not exist", {
        stream: '&lt;b&gt;',
      });
      expectError(await toGeneral(member, 'x', 't', { to: '999999' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '999999' does not exist", {
        stream_id: 999999,
      });
      expectError(await toGeneral(member, 'x', 't', { to: 'foreign' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'foreign' does not exist", {
        stream: 'foreign',
      });
    });

    it('refuses a private channel the sender is not in, and a guest outside a public channel', async () => {
      expectError(await toGeneral(member, 'x', 't', { to: 'secret' }), 400, 'BAD_REQUEST', "Not authorized to send to channel 'secret'");
      expectError(await toGeneral(guest, 'x'), 400, 'BAD_REQUEST', "Not authorized to send to channel 'general'");
      expectSuccess(await toGeneral(admin, 'inside', 't', { to: 'secret' }));
    });

    it('lets a member post to a public channel they are not subscribed to', async () => {
      const loner = await factory.user({ id: realmId });
      const body = expectSuccess(await toGeneral(loner, 'drive-by'));
      expect((await stored(body.id)).recipients.map((r) => r.userId)).toContain(loner.id);
    });

    it('publishes the message event after commit with each recipient’s flags and the sender’s local id', async () => {
      events.clear();
      const body = expectSuccess(
        await toGeneral(member, 'Hi @**King Hamlet** and @_**Olivia Owner**', 'flags', { queue_id: 'q-123', local_id: '9.01', read_by_sender: true }),
      );
      const event = await sentEvent(body.id);
      expect(event.realmId).toBe(realmId);
      expect(event.senderQueue).toEqual({ userId: member.id, queueId: 'q-123', localId: '9.01' });
      expect(event.message).toMatchObject({
        id: body.id,
        sender_id: member.id,
        sender_full_name: 'Mia Member',
        sender_email: member.email,
        type: 'stream',
        stream_id: general.id,
        display_recipient: 'general',
        subject: 'flags',
        raw_content: 'Hi @**King Hamlet** and @_**Olivia Owner**',
        content_type: 'text/html',
      });
      expect(event.message.content).toBe(
        `<p>Hi <span class="user-mention" data-user-id="${friend.id}">@King Hamlet</span> and ` +
          `<span class="user-mention silent" data-user-id="${owner.id}">Olivia Owner</span></p>`,
      );
      const flags = Object.fromEntries(event.recipients.map((r) => [r.id, r.flags]));
      expect(flags[member.id]).toEqual(['read']);
      expect(flags[friend.id]).toEqual(['mentioned']);
      expect(flags[owner.id]).toEqual([]);
    });

    it('decides read_by_sender by the client when not given', async () => {
      const web = expectSuccess(await send(member, { type: 'stream', to: 'general', topic: 'rbs', content: 'x' }, { 'User-Agent': 'ZulipMobile/27.1' }));
      const bot = expectSuccess(await send(member, { type: 'stream', to: 'general', topic: 'rbs', content: 'x' }, { 'User-Agent': 'ZulipPython/0.9' }));
      const flagsOf = async (id: number) => (await stored(id)).recipients.find((r) => r.userId === member.id)!.flags & 1;
      expect(await flagsOf(web.id)).toBe(1);
      expect(await flagsOf(bot.id)).toBe(0);
      expect((await stored(bot.id)).sendingClient).toBe('ZulipPython');
    });

    it('publishes nothing for a refused message', async () => {
      events.clear();
      await toGeneral(member, '');
      expect(await events.publishedByNow(MESSAGE_SENT)).toEqual([]);
    });
  });

  describe('automatic topic visibility', () => {
    it('follows a topic the sender starts, in the response and a user_topic event', async () => {
      events.clear();
      const first = expectSuccess(await toGeneral(friend, 'new topic', 'fresh topic'));
      expect(first.automatic_new_visibility_policy).toBe(3);
      const [event] = await events.waitFor<{ users: number[]; event: Record<string, unknown> }>(USER_TOPIC);
      expect(event.users).toEqual([friend.id]);
      expect(event.event).toMatchObject({ type: 'user_topic', stream_id: general.id, topic_name: 'fresh topic', visibility_policy: 3 });
      expect(typeof event.event.last_updated).toBe('number');
      const again = expectSuccess(await toGeneral(friend, 'reply', 'fresh topic'));
      expect(again.automatic_new_visibility_policy).toBeUndefined();
    });

    it('does not follow a topic someone else started (default policy: on initiation)', async () => {
      const reply = expectSuccess(await toGeneral(member, 'joining in', 'fresh topic'));
      expect(reply.automatic_new_visibility_policy).toBeUndefined();
      expect(await system.db.userTopic.count({ where: { userId: member.id, topicName: 'fresh topic' } })).toBe(0);
    });

    it('unmutes the topic when the sender has muted the channel', async () => {
      await system.db.subscription.update({
        where: { userId_streamId: { userId: owner.id, streamId: general.id } },
        data: { isMuted: true },
      });
      const body = expectSuccess(await toGeneral(owner, 'in a muted channel', 'fresh topic'));
      expect(body.automatic_new_visibility_policy).toBe(2);
      expect(await system.db.userTopic.findFirst({ where: { userId: owner.id, topicName: 'fresh topic' } })).toMatchObject({
        visibilityPolicy: 2,
      });
    });

    it('follows the topic for mentioned users who follow where mentioned, not for others', async () => {
      events.clear();
      expectSuccess(await toGeneral(member, '@**Adam Admin** @**Quiet One** look', 'mention follow'));
      const changed = await events.waitFor<{ users: number[]; event: Record<string, unknown> }>(USER_TOPIC, 2);
      const users = changed.flatMap((e) => e.users).sort((a, b) => a - b);
      expect(users).toEqual([admin.id, member.id].sort((a, b) => a - b));
      expect(await system.db.userTopic.count({ where: { userId: quiet.id } })).toBe(0);
    });
  });

  describe('wildcard mentions', () => {
    let big: { id: number };
    let crowd: TestUser[];
    beforeAll(async () => {
      crowd = [];
      for (let i = 0; i < 16; i++) crowd.push(await factory.user({ id: realmId }, { fullName: `Crowd ${i}` }));
      big = await factory.channel({ id: realmId }, { name: 'big', subscribers: [member, admin, ...crowd] });
    });

    it('lets anyone use a channel wildcard in a channel of at most 15 subscribers, flagging everyone', async () => {
      events.clear();
      const body = expectSuccess(await toGeneral(member, 'hey @**all**', 'wild'));
      const event = await sentEvent(body.id);
      expect(event.recipients.every((r) => r.flags.includes('stream_wildcard_mentioned') && r.flags.includes('wildcard_mentioned'))).toBe(true);
    });

    it('refuses a member’s channel wildcard in a larger channel, with its own code', async () => {
      const before = await system.db.message.count();
      expectError(
        await send(member, { type: 'stream', to: 'big', topic: 't', content: '@**everyone** hi' }),
        400,
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      );
      expect(await system.db.message.count()).toBe(before);
      expectSuccess(await send(member, { type: 'stream', to: 'big', topic: 't', content: '@_**everyone** silent is fine' }));
    });

    it('lets an administrator use it, and follows the organization’s setting', async () => {
      expectSuccess(await send(admin, { type: 'stream', to: 'big', topic: 't', content: '@**channel** news' }));
      const members = await factory.systemGroupId({ id: realmId }, 'role:members');
      await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: members } });
      expectSuccess(await send(member, { type: 'stream', to: 'big', topic: 't', content: '@**channel** allowed now' }));
      const administrators = await factory.systemGroupId({ id: realmId }, 'role:administrators');
      await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: administrators } });
    });

    it('refuses a topic wildcard in a topic with more than 15 participants', async () => {
      for (const person of crowd) await factory.channelMessages({ id: person.id, realmId }, big, 'busy');
      expectError(
        await send(member, { type: 'stream', to: 'big', topic: 'busy', content: '@**topic** hi' }),
        400,
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use topic wildcard mentions in this topic.',
      );
      const ok = expectSuccess(await send(member, { type: 'stream', to: 'big', topic: 'quiet', content: '@**topic** hi' }));
      expect(ok.id).toBeGreaterThan(0);
    });
  });

  describe('channel links', () => {
    it('links #**general** whatever its case, but never by a wildcard (`_`, `%`) in the name', async () => {
      const linked = await stored(expectSuccess(await toGeneral(member, 'see #**General**', 'links')).id);
      expect(linked.renderedContent).toContain(`data-stream-id="${general.id}"`);
      for (const hostile of ['gen_ral', 'gen%', '%']) {
        const message = await stored(expectSuccess(await toGeneral(member, `see #**${hostile}**`, 'links')).id);
        expect(message.renderedContent).not.toContain('data-stream-id');
      }
    });
  });

  describe('group mentions', () => {
    let team: { id: number };
    beforeAll(async () => {
      team = await factory.userGroup({ id: realmId }, { name: 'kitchen crew', members: [friend] });
      const everyone = await factory.systemGroupId({ id: realmId }, 'role:everyone');
      await system.db.userGroup.update({ where: { id: team.id }, data: { canMentionGroupId: everyone } });
    });

    it('renders @*group*, and flags its members (through subgroups) as mentioned', async () => {
      const nested = await factory.userGroup({ id: realmId }, { name: 'outer crew', subgroupIds: [team.id] });
      const everyone = await factory.systemGroupId({ id: realmId }, 'role:everyone');
      await system.db.userGroup.update({ where: { id: nested.id }, data: { canMentionGroupId: everyone } });
      events.clear();
      const body = expectSuccess(await toGeneral(member, 'calling @*outer crew* and @_*kitchen crew*', 'crew'));
      const message = await stored(body.id);
      expect(message.renderedContent).toBe(
        `<p>calling <span class="user-group-mention" data-user-group-id="${nested.id}">@outer crew</span> and ` +
          `<span class="user-group-mention silent" data-user-group-id="${team.id}">kitchen crew</span></p>`,
      );
      const event = await sentEvent(body.id);
      const flagsOf = (id: number) => event.recipients.find((r) => r.id === id)!.flags;
      expect(flagsOf(friend.id)).toContain('mentioned');
      expect(flagsOf(admin.id)).not.toContain('mentioned');
    });

    it('does not flag anyone for a silent group mention, nor render unknown groups', async () => {
      events.clear();
      const body = expectSuccess(await toGeneral(member, '@_*kitchen crew* and @*no such crew*', 'crew'));
      const event = await sentEvent(body.id);
      expect(event.recipients.every((r) => !r.flags.includes('mentioned'))).toBe(true);
      expect((await stored(body.id)).renderedContent).toContain('@<em>no such crew</em>');
    });

    it('refuses a mention the group’s can_mention_group does not allow, or of a deactivated group, storing nothing', async () => {
      const admins = await factory.systemGroupId({ id: realmId }, 'role:administrators');
      const guarded = await factory.userGroup({ id: realmId }, { name: 'guarded crew', members: [friend] });
      await system.db.userGroup.update({ where: { id: guarded.id }, data: { canMentionGroupId: admins } });
      const before = await system.db.message.count();
      expectError(await toGeneral(member, 'hi @*guarded crew*'), 400, 'BAD_REQUEST', "You are not allowed to mention user group 'guarded crew'.");
      expect(await system.db.message.count()).toBe(before);
      expectSuccess(await toGeneral(admin, 'hi @*guarded crew*'));
      expectSuccess(await toGeneral(member, 'hi @_*guarded crew*'));

      await system.db.userGroup.update({ where: { id: team.id }, data: { deactivated: true } });
      try {
        expectError(await toGeneral(admin, 'hi @*kitchen crew*'), 400, 'BAD_REQUEST', "You are not allowed to mention user group 'kitchen crew'.");
      } finally {
        await system.db.userGroup.update({ where: { id: team.id }, data: { deactivated: false } });
      }
    });
  });

  describe('direct messages', () => {
    it('sends to user ids, including the sender in the conversation', async () => {
      const body = expectSuccess(await send(member, { type: 'direct', to: JSON.stringify([friend.id]), content: 'psst' }));
      const message = await stored(body.id);
      expect(message.streamId).toBeNull();
      expect(message.recipients.map((r) => r.userId).sort((a, b) => a - b)).toEqual([member.id, friend.id].sort((a, b) => a - b));
      expect(message.recipients.every((r) => (r.flags & 2048) !== 0)).toBe(true);
    });

    it('sends to emails, as a JSON list or comma-separated, with the legacy type private', async () => {
      const a = expectSuccess(await send(member, { type: 'private', to: JSON.stringify([friend.email.toUpperCase()]), content: 'a' }));
      const b = expectSuccess(await send(member, { type: 'private', to: `${friend.email},${admin.email}`, content: 'b' }));
      const ids = async (id: number) => (await stored(id)).recipients.map((r) => r.userId).sort((x, y) => x - y);
      expect(await ids(a.id)).toEqual([member.id, friend.id].sort((x, y) => x - y));
      expect(await ids(b.id)).toEqual([member.id, friend.id, admin.id].sort((x, y) => x - y));
    });

    it('reuses one conversation for the same people in any order', async () => {
      const x = expectSuccess(await send(member, { type: 'direct', to: JSON.stringify([friend.id, admin.id]), content: 'x' }));
      const y = expectSuccess(await send(friend, { type: 'direct', to: JSON.stringify([admin.id, member.id]), content: 'y' }));
      expect((await stored(x.id)).dmGroupId).toBe((await stored(y.id)).dmGroupId);
    });

    it('publishes a private message event with every member as display_recipient', async () => {
      events.clear();
      const body = expectSuccess(await send(member, { type: 'direct', to: JSON.stringify([friend.id]), content: 'evt' }));
      const event = await sentEvent(body.id);
      expect(event.message).toMatchObject({ type: 'private', subject: '' });
      expect((event.message.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual(
        [member.id, friend.id].sort((a, b) => a - b),
      );
      expect(event.message).not.toHaveProperty('stream_id');
    });

    it.each([
      [() => JSON.stringify([999999]), 'Invalid user ID 999999'],
      [() => JSON.stringify(['ghost@nowhere.test']), "Invalid email 'ghost@nowhere.test'"],
      [() => JSON.stringify([1, 'a@b.c']), 'Recipient lists may contain emails or user IDs, but not both.'],
      [() => JSON.stringify([{ id: 1 }]), 'Invalid data type for recipients'],
      [() => '[]', 'Message must have recipients'],
      [() => JSON.stringify([outsider.id]), () => `Invalid user ID ${outsider.id}`],
      [() => JSON.stringify([outsider.email]), () => `Invalid email '${outsider.email}'`],
    ])('refuses bad recipients (%#)', async (to, msg) => {
      const before = await system.db.message.count();
      const text = typeof msg === 'function' ? msg() : msg;
      expectError(await send(member, { type: 'direct', to: to(), content: 'x' }), 400, 'BAD_REQUEST', text);
      expect(await system.db.message.count()).toBe(before);
    });

    it('ignores the topic of a direct message', async () => {
      const body = expectSuccess(await send(member, { type: 'direct', to: JSON.stringify([friend.id]), topic: 'ignored', content: 'x' }));
      expect((await stored(body.id)).topic).toBe('');
    });
  });

  describe('who may send', () => {
    it('refuses callers without valid credentials or from another organization', async () => {
      const form = { type: 'stream', to: 'general', topic: 't', content: 'x' };
      await expectCallersRefused((options) => system.api.post('/messages', form, options), { subdomain: sub, member, outsider });
    });
  });
});

import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const SUBMESSAGE = 'event.messaging.submessage_added.v1';
const TYPING = 'event.presence.typing.v1';
const SUBSCRIPTION = 'event.messaging.subscription_changed.v1';
const BBB_SECRET = 'bbb-secret';

interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}
interface FetchedMessage {
  id: number;
  submessages: Submessage[];
}

/** Widgets (polls, to-do lists) and their submessages, edit typing, bulk subscription changes and video calls. */
describe('widgets, edit typing, subscription changes and video calls', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, other: TestUser, third: TestUser, guest: TestUser, admin: TestUser, deactivated: TestUser, outsider: TestUser;
  let general: { id: number; name: string }, secret: { id: number; name: string };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const send = async (user: TestUser, form: Record<string, unknown>) => expectSuccess(await system.api.post('/messages', form as never, as(user))).id as number;
  const toGeneral = (user: TestUser, content: string, topic = 'widgets') => send(user, { type: 'stream', to: general.id, topic, content });
  const fetch = async (user: TestUser, id: number) =>
    expectSuccess(await system.api.get<{ messages: FetchedMessage[] }>('/messages', { message_ids: JSON.stringify([id]) } as never, as(user))).messages[0];
  const submit = (user: TestUser, messageId: number | string, content: unknown, msgType = 'widget', sub = subdomain) =>
    system.api.post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) } as never, as(user, sub));
  const rowsOf = (messageId: number) => system.db.submessage.findMany({ where: { messageId }, orderBy: { id: 'asc' } });
  const eventsDoc = (event: Record<string, unknown>) => expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    system = await TestSystem.start({ env: { BIG_BLUE_BUTTON_URL: 'https://bbb.example.test/bigbluebutton/', BIG_BLUE_BUTTON_SECRET: BBB_SECRET, JITSI_SERVER_URL: 'https://jitsi.example.test/' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'widgets' });
    ({ member, guest, admin } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    third = await factory.user(org.realm, { fullName: 'Third Member' });
    deactivated = await factory.user(org.realm, { isActive: false });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, third] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [other] });
    outsider = await factory.user(await factory.organization({ subdomain: 'widgets-elsewhere' }), { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('widgets at send', () => {
    it("gives a /poll message the sender's widget submessage, in Zulip's JSON, in the message event and in GET /messages", async () => {
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['message'] });
      const id = await toGeneral(member, '/poll What for lunch?\n- Pizza\n* Salad\n\nüber');
      const [row] = await rowsOf(id);
      expect(row).toMatchObject({ senderId: member.id, msgType: 'widget' });
      expect(row.content).toBe('{"widget_type": "poll", "extra_data": {"question": "What for lunch?", "options": ["Pizza", "Salad", "\\u00fcber"]}}');
      const expected = [{ id: row.id, message_id: id, sender_id: member.id, msg_type: 'widget', content: row.content }];
      const [event] = await queue.waitFor('message');
      expect((event as unknown as { message: FetchedMessage }).message.submessages).toEqual(expected);
      const page = await system.api.get('/messages', { message_ids: JSON.stringify([id]) } as never, as(other));
      expectMatchesOpenApi('get', '/messages', page.body);
      expect((await fetch(other, id)).submessages).toEqual(expected);
      expect(expectSuccess(await system.api.get<{ message: FetchedMessage }>(`/messages/${id}`, {}, as(other))).message.submessages).toEqual(expected);
    });

    it('parses /todo titles and tasks, and leaves other content alone', async () => {
      const todo = await toGeneral(member, '/todo Chores\n- Dishes: before noon\nLaundry');
      expect((await rowsOf(todo))[0].content).toBe(
        '{"widget_type": "todo", "extra_data": {"task_list_title": "Chores", "tasks": [{"task": "Dishes", "desc": "before noon"}, {"task": "Laundry", "desc": ""}]}}',
      );
      const bare = await toGeneral(member, '/poll');
      expect((await rowsOf(bare))[0].content).toBe('{"widget_type": "poll", "extra_data": {"question": "", "options": []}}');
      for (const content of ['/polls are fun', 'a /poll inside', '/me waves', 'plain']) {
        const id = await toGeneral(member, content);
        expect(await rowsOf(id)).toEqual([]);
        expect((await fetch(member, id)).submessages).toEqual([]);
      }
    });
  });

  describe('POST /submessage', () => {
    let poll: number;
    let todo: number;
    beforeAll(async () => {
      poll = await toGeneral(member, '/poll Colors?\nRed');
      todo = await toGeneral(member, '/todo Tasks');
    });

    it('stores a vote as sent and tells everyone who received the message', async () => {
      const content = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
      const res = await submit(other, poll, content);
      expect(res.body).toEqual({ result: 'success', msg: '' });
      const rows = await rowsOf(poll);
      expect(rows[1]).toMatchObject({ senderId: other.id, msgType: 'widget', content });
      const [published] = await events.waitFor<ClientEvent>(SUBMESSAGE);
      expect(published).toEqual({
        realmId,
        users: [member.id, other.id, third.id].sort((a, b) => a - b),
        event: { type: 'submessage', msg_type: 'widget', message_id: poll, submessage_id: rows[1].id, sender_id: other.id, content },
      });
      eventsDoc(published.event);
      expect((await fetch(third, poll)).submessages.map((s) => s.sender_id)).toEqual([member.id, other.id]);
    });

    it('lets only the author change the question or the title, and checks every field', async () => {
      const before = await system.db.submessage.count();
      const refused: [unknown, string, number?][] = [
        [{ type: 'question', question: 'Mine?' }, "You can't edit a question unless you are the author."],
        [{ type: 'vote', key: 'k', vote: 2 }, 'Invalid poll data["vote"]'],
        [{ type: 'vote', key: 5, vote: 1 }, 'poll data["key"] is not a string'],
        [{ type: 'vote', key: 'k' }, 'vote key is missing from poll data'],
        [{ type: 'vote', key: 'k', vote: 1, extra: true }, 'Unexpected arguments: extra'],
        [{ type: 'new_option', option: 'Blue', idx: 1001 }, 'poll data["idx"] is too large'],
        [{ type: 'new_option', option: 'Blue', idx: -1 }, 'poll data["idx"] is too small'],
        [{ type: 'close' }, 'Unknown type for poll data: close'],
        [['not', 'a', 'dict'], 'poll data is not a dict'],
        [{ vote: 1 }, 'type key is missing from poll data'],
        ['{not json', 'Invalid json for submessage'],
        [{ type: 'new_task_list_title', title: 'Mine' }, "You can't edit the task list title unless you are the author.", todo],
        [{ type: 'new_task', key: 1, task: 'x', desc: '', completed: 'no' }, 'todo data["completed"] is not a boolean', todo],
        [{ type: 'strike' }, 'key key is missing from todo data', todo],
        [{ type: 'vote', key: 'k', vote: 1 }, 'Unknown type for todo data: vote', todo],
      ];
      for (const [content, message, target] of refused) expectError(await submit(other, target ?? poll, content), 400, 'BAD_REQUEST', message);
      expect(await system.db.submessage.count()).toBe(before);
      expect(await events.publishedByNow(SUBMESSAGE)).toEqual([]);
      expectSuccess(await submit(member, poll, { type: 'question', question: 'Colours?' }));
      expectSuccess(await submit(member, todo, { type: 'new_task_list_title', title: 'Today' }));
      expectSuccess(await submit(other, todo, { type: 'new_task', key: 2, task: 'Shop', desc: 'milk', completed: false }));
      expectSuccess(await submit(other, todo, { type: 'strike', key: '2,other' }));
      expect(await system.db.submessage.count()).toBe(before + 4);
    });

    it("refuses a message the caller cannot read or another organization's, and a first submessage from anyone but the sender", async () => {
      const hidden = await send(other, { type: 'stream', to: secret.id, topic: 't', content: '/poll Secret?' });
      const plain = await toGeneral(member, 'no widget here');
      const before = await system.db.submessage.count();
      expectError(await submit(member, hidden, { type: 'vote', key: 'k', vote: 1 }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await submit(member, 99999999, {}), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await submit(outsider, poll, { type: 'vote', key: 'k', vote: 1 }, 'widget', 'widgets-elsewhere'), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await submit(other, plain, { anything: 1 }), 400, 'BAD_REQUEST', 'You cannot attach a submessage to this message.');
      expectError(await system.api.post('/submessage', { message_id: poll, msg_type: 'widget' } as never, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", {
        var_name: 'content',
      });
      expect(await system.db.submessage.count()).toBe(before);
      // A message with no widget takes any JSON from its sender, then from others.
      expectSuccess(await submit(member, plain, { free: 'form' }, 'custom'));
      expectSuccess(await submit(other, plain, [1, 2]));
      expect((await rowsOf(plain)).map((row) => [row.senderId, row.msgType])).toEqual([
        [member.id, 'custom'],
        [other.id, 'widget'],
      ]);
      await expectCallersRefused((options) => system.api.post('/submessage', { message_id: poll, msg_type: 'widget', content: '{}' } as never, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('POST /messages/{message_id}/typing', () => {
    it('tells the channel subscribers who receive typing notifications, the editor included', async () => {
      await factory.userSettings(third, { receives_typing_notifications: false });
      const id = await toGeneral(member, 'to edit', 'edits');
      const res = await system.api.post(`/messages/${id}/typing`, { op: 'start' } as never, as(member));
      expectMatchesOpenApi('post', '/messages/{message_id}/typing', res.body);
      expectSuccess(res);
      const [published] = await events.waitFor<ClientEvent>(TYPING);
      expect(published).toEqual({
        realmId,
        users: [member.id, other.id].sort((a, b) => a - b),
        event: { type: 'typing_edit_message', op: 'start', sender_id: member.id, message_id: id, recipient: { type: 'channel', channel_id: general.id, topic: 'edits' } },
      });
      eventsDoc(published.event);
      await factory.userSettings(third, { receives_typing_notifications: true });
    });

    it("tells a direct conversation's participants, and reaches their queues", async () => {
      const id = await send(member, { type: 'direct', to: JSON.stringify([other.id]), content: 'dm to edit' });
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['typing_edit_message'] });
      expectSuccess(await system.api.post(`/messages/${id}/typing`, { op: 'stop' } as never, as(member)));
      const users = [member.id, other.id].sort((a, b) => a - b);
      const [event] = await queue.waitFor('typing_edit_message');
      expect(event).toEqual({ id: expect.any(Number), type: 'typing_edit_message', op: 'stop', sender_id: member.id, message_id: id, recipient: { type: 'direct', user_ids: users } });
    });

    it("refuses someone else's message, an unreadable one, a bad op and a disabled setting, telling nobody", async () => {
      const mine = await toGeneral(member, 'mine');
      const hidden = await send(other, { type: 'stream', to: secret.id, topic: 't', content: 'hidden' });
      const typing = (user: TestUser, id: number | string, op = 'start', sub = subdomain) => system.api.post(`/messages/${id}/typing`, { op } as never, as(user, sub));
      expectError(await typing(other, mine), 400, 'BAD_REQUEST', "You don't have permission to edit this message");
      expectError(await typing(member, hidden), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await typing(outsider, mine, 'start', 'widgets-elsewhere'), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await typing(member, mine, 'begin'), 400, 'BAD_REQUEST', 'Invalid op');
      await factory.userSettings(member, { send_stream_typing_notifications: false });
      expectError(await typing(member, mine), 400, 'BAD_REQUEST', 'User has disabled typing notifications for channel messages');
      await factory.userSettings(member, { send_stream_typing_notifications: true });
      await system.db.realm.update({ where: { id: realmId }, data: { allowMessageEditing: false } });
      expectError(await typing(member, mine), 400, 'BAD_REQUEST', 'Your organization has turned off message editing');
      await system.db.realm.update({ where: { id: realmId }, data: { allowMessageEditing: true, messageContentEditLimitSeconds: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expectError(await typing(member, mine), 400, 'BAD_REQUEST', 'The time limit for editing this message has passed');
      await system.db.realm.update({ where: { id: realmId }, data: { messageContentEditLimitSeconds: null } });
      expect(await events.publishedByNow(TYPING)).toEqual([]);
      await expectCallersRefused((options) => system.api.post(`/messages/${mine}/typing`, { op: 'start' } as never, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH /users/me/subscriptions', () => {
    const patch = (user: TestUser, form: Record<string, unknown>) => system.api.patch('/users/me/subscriptions', form as never, as(user));
    const subscribed = async (user: TestUser) =>
      (await system.db.subscription.findMany({ where: { userId: user.id, active: true }, include: { stream: true } })).map((s) => s.stream.name).sort();

    it('subscribes to `add` (creating a channel, with its color) and unsubscribes from `delete`, in the documented shape', async () => {
      const leaving = await factory.channel({ id: realmId }, { name: 'leaving', subscribers: [other] });
      const res = await patch(other, { add: JSON.stringify([{ name: 'brand new', color: '#aabbcc', description: 'Fresh' }, { name: 'general' }]), delete: JSON.stringify(['leaving', 'secret']) });
      expectMatchesOpenApi('patch', '/users/me/subscriptions', res.body);
      expect(expectSuccess(res)).toEqual({
        result: 'success',
        msg: '',
        subscribed: { [other.id]: ['brand new'] },
        already_subscribed: { [other.id]: ['general'] },
        removed: ['leaving', 'secret'],
        not_removed: [],
      });
      expect(await subscribed(other)).toEqual(['brand new', 'general']);
      const created = await system.db.stream.findFirstOrThrow({ where: { realmId, name: 'brand new' } });
      expect(created.description).toBe('Fresh');
      expect((await system.db.subscription.findFirstOrThrow({ where: { userId: other.id, streamId: created.id } })).color).toBe('#aabbcc');
      const published = await events.waitFor<ClientEvent>(SUBSCRIPTION, 2);
      expect(published.some((e) => e.users.includes(other.id) && e.event.op === 'add')).toBe(true);
      expect(published.some((e) => e.users.includes(other.id) && e.event.op === 'remove')).toBe(true);
      expect((await system.db.subscription.findFirstOrThrow({ where: { userId: other.id, streamId: leaving.id } })).active).toBe(false);
      // Only one side: the other answers empty.
      expect(expectSuccess(await patch(other, { delete: JSON.stringify(['leaving']) }))).toMatchObject({ subscribed: {}, already_subscribed: {}, removed: [], not_removed: ['leaving'] });
    });

    it('refuses bad input changing nothing, with the rules of subscribing and unsubscribing', async () => {
      const before = await system.db.subscription.findMany({ orderBy: { id: 'asc' } });
      const channels = await system.db.stream.count();
      expectError(await patch(member, {}), 400, 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await patch(member, { add: '[]', delete: '[]' }), 400, 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await patch(member, { add: JSON.stringify([{ name: 'ok one', color: 'red' }]) }), 400, 'BAD_REQUEST', 'add.color is not a valid hex color code');
      expectError(await patch(member, { add: JSON.stringify([{ name: 'new one' }]), delete: JSON.stringify(['nowhere']) }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nowhere' does not exist", {
        stream: 'nowhere',
      });
      expectError(await patch(member, { add: JSON.stringify([{ name: 'secret' }]), delete: JSON.stringify(['general']) }), 400, 'BAD_REQUEST', 'Unable to access channel (secret).');
      expectError(await patch(member, { add: JSON.stringify([{ name: '   ' }]) }), 400, 'BAD_REQUEST', "Channel name can't be empty.");
      expectError(await patch(guest, { add: JSON.stringify([{ name: 'guest made' }]) }), 400, 'BAD_REQUEST', 'Insufficient permission');
      // Another organization's channel of that name is unknown here.
      expectError(await patch(outsider, { delete: JSON.stringify(['general']) }), 401, 'UNAUTHORIZED', 'Account is not associated with this subdomain');
      expect(await system.db.subscription.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
      expect(await system.db.stream.count()).toBe(channels);
      expect(await events.publishedByNow(SUBSCRIPTION)).toEqual([]);
      await expectCallersRefused((options) => system.api.patch('/users/me/subscriptions', { delete: '["general"]' } as never, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('muted topics and video calls', () => {
    it('serves no GET /users/me/muted_topics, as Zulip does not', async () => {
      const res = await system.api.get('/users/me/muted_topics', {}, as(member));
      expect(res.status).toBe(404);
    });

    it('POST /register offers the configured providers and Jitsi URLs', async () => {
      await system.db.realm.update({ where: { id: realmId }, data: { videoChatProvider: 4 } });
      const queue = await EventQueueClient.register(system.api, as(member), { fetch_event_types: JSON.stringify(['realm']) } as never);
      expect(queue.state).toMatchObject({
        realm_video_chat_provider: 4,
        realm_available_video_chat_providers: {
          disabled: { name: 'None', id: 0 },
          jitsi_meet: { name: 'Jitsi Meet', id: 1 },
          big_blue_button: { name: 'BigBlueButton', id: 4 },
        },
        server_jitsi_server_url: 'https://jitsi.example.test',
        jitsi_server_url: 'https://jitsi.example.test',
        realm_jitsi_server_url: null,
      });
      await system.db.realm.update({ where: { id: realmId }, data: { jitsiServerUrl: 'https://meet.example.org' } });
      const again = await EventQueueClient.register(system.api, as(member), { fetch_event_types: JSON.stringify(['realm']) } as never);
      expect(again.state).toMatchObject({ jitsi_server_url: 'https://meet.example.org', server_jitsi_server_url: 'https://jitsi.example.test' });
    });

    it('GET /calls/bigbluebutton/create answers a join URL carrying the meeting signed', async () => {
      const { createHash, createHmac } = await import('node:crypto');
      const res = await system.api.get('/calls/bigbluebutton/create', { meeting_name: 'general meeting', voice_only: 'true' } as never, as(member));
      expectMatchesOpenApi('get', '/calls/bigbluebutton/create', res.body);
      const { url } = expectSuccess(res) as { url: string };
      const match = /^\/calls\/bigbluebutton\/join\?bigbluebutton=([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/.exec(url);
      expect(match).not.toBeNull();
      const [, data, signature] = match!;
      expect(JSON.parse(Buffer.from(data, 'base64url').toString('latin1'))).toEqual({
        meeting_id: expect.stringMatching(/^zulip-\d{12}$/),
        name: 'general meeting',
        lock_settings_disable_cam: true,
        moderator: member.id,
      });
      const key = createHash('sha256').update(`django.core.signing.Signersigner${BBB_SECRET}`).digest();
      expect(signature).toBe(createHmac('sha256', key).update(data).digest('base64url'));
      const plain = expectSuccess(await system.api.get('/calls/bigbluebutton/create', { meeting_name: 'x' } as never, as(member))) as { url: string };
      expect(JSON.parse(Buffer.from(plain.url.split('=')[1].split(':')[0], 'base64url').toString()).lock_settings_disable_cam).toBe(false);
      expectError(await system.api.get('/calls/bigbluebutton/create', {}, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'meeting_name' argument", { var_name: 'meeting_name' });
      await expectCallersRefused((options) => system.api.get('/calls/bigbluebutton/create', { meeting_name: 'm' } as never, options), { subdomain, member, outsider, deactivated });
    });
  });
});

import { Role } from '@teamchat/zulip';
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

describe('PATCH /messages/{message_id}', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realm: { id: number };
  let admin: TestUser, moderator: TestUser, member: TestUser, friend: TestUser, guest: TestUser, outsider: TestUser, deactivated: TestUser;
  let channel: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const send = async (user: TestUser, form: Record<string, unknown>) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form as never, as(user))).id;
  const say = (user: TestUser, content: string, topic = 'talk', to = channel.name) => send(user, { type: 'stream', to, topic, content });
  const edit = (user: TestUser, id: number, form: Record<string, unknown>) => system.api.patch(`/messages/${id}`, form as never, as(user));
  const stored = (id: number) => system.db.message.findUniqueOrThrow({ where: { id } });
  const flagsOf = async (user: TestUser, messageId: number) =>
    (await system.db.userMessage.findUnique({ where: { userId_messageId: { userId: user.id, messageId } } }))?.flags;
  const ago = (id: number, seconds: number) => system.db.message.update({ where: { id }, data: { dateSent: new Date(Date.now() - seconds * 1000) } });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'msgedit' });
    subdomain = org.realm.subdomain;
    realm = org.realm;
    admin = org.admin;
    member = org.member;
    guest = org.guest;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Mo Moderator' });
    friend = await factory.user(org.realm, { fullName: 'Fred Friend' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'msgedit-other' }), { role: Role.OWNER });
    channel = await factory.channel(org.realm, { name: 'edits', subscribers: [member, friend, admin, moderator, guest] });
  });
  afterAll(() => system.stop());

  it('POST /register shows the organization’s editing, moving and deletion settings as stored', async () => {
    const fetchRealm = async () => expectSuccess(await system.api.post<Record<string, any>>('/register', { fetch_event_types: ['realm'] }, as(member)));
    const everyone = await factory.systemGroupId(realm, 'role:everyone');
    const members = await factory.systemGroupId(realm, 'role:members');
    const admins = await factory.systemGroupId(realm, 'role:administrators');
    expect(await fetchRealm()).toMatchObject({
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_message_content_delete_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: 604800,
      realm_move_messages_between_streams_limit_seconds: 604800,
      realm_can_move_messages_between_topics_group: everyone,
      realm_can_move_messages_between_channels_group: members,
      realm_can_delete_own_message_group: everyone,
      realm_can_delete_any_message_group: admins,
      realm_can_resolve_topics_group: everyone,
    });
    await system.db.realm.update({ where: { id: realm.id }, data: { allowMessageEditing: false, messageContentEditLimitSeconds: null, canDeleteAnyMessageGroupId: members } });
    const changed = await fetchRealm();
    expectMatchesOpenApi('post', '/register', changed);
    expect(changed).toMatchObject({ realm_allow_message_editing: false, realm_message_content_edit_limit_seconds: null, realm_can_delete_any_message_group: members });
    await system.db.realm.update({ where: { id: realm.id }, data: { allowMessageEditing: true, messageContentEditLimitSeconds: 600, canDeleteAnyMessageGroupId: null } });
  });

  describe('content', () => {
    it('edits the sender’s message, keeps its history, and tells its readers with their own flags', async () => {
      const id = await say(member, 'first draft');
      const friendQueue = await EventQueueClient.register(system.api, as(friend), { event_types: ['update_message'] });
      const outsiderQueue = await EventQueueClient.register(system.api, { auth: outsider, subdomain: 'msgedit-other' }, { event_types: ['update_message'] });
      const body = expectSuccess(await edit(member, id, { content: `final **words** @**${friend.fullName}**` }));
      expectMatchesOpenApi('patch', '/messages/{message_id}', body);
      expect(body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
      const message = await stored(id);
      expect(message.content).toBe(`final **words** @**${friend.fullName}**`);
      expect(message.renderedContent).toContain('<strong>words</strong>');
      expect(message.lastEditTime).not.toBeNull();
      expect((await flagsOf(friend, id))! & 8).toBe(8); // newly mentioned

      const [event] = await friendQueue.waitFor('update_message');
      expect(event).toMatchObject({
        user_id: member.id,
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        stream_id: channel.id,
        stream_name: channel.name,
        orig_content: 'first draft',
        orig_rendered_content: '<p>first draft</p>',
        content: `final **words** @**${friend.fullName}**`,
        is_me_message: false,
        flags: ['mentioned'],
      });
      expect(event.rendered_content).toContain('<strong>words</strong>');
      expect(event).not.toHaveProperty('orig_subject');
      expect(await outsiderQueue.settle()).toEqual([]);

      const history = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}/history`, {}, as(friend)));
      expectMatchesOpenApi('get', '/messages/{message_id}/history', history);
      expect(history.message_history).toHaveLength(2);
      expect(history.message_history[0]).toMatchObject({ content: 'first draft', user_id: member.id, topic: 'talk' });
      expect(history.message_history[1]).toMatchObject({ content: message.content, prev_content: 'first draft', prev_rendered_content: '<p>first draft</p>', user_id: member.id });
      const one = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}`, {}, as(friend)));
      expect(one.message.last_edit_timestamp).toBe(Math.floor(message.lastEditTime!.getTime() / 1000));

      // A later edit removing the mention clears the flag.
      expectSuccess(await edit(member, id, { content: 'no mention now' }));
      expect((await flagsOf(friend, id))! & 8).toBe(0);
    });

    it('refuses others’ messages, past the limit, with editing turned off, and bad requests, changing nothing', async () => {
      const id = await say(member, 'mine');
      expectError(await edit(friend, id, { content: 'hijack' }), 400, 'BAD_REQUEST', "You don't have permission to edit this message");
      expectError(await edit(admin, id, { content: 'hijack' }), 400, 'BAD_REQUEST', "You don't have permission to edit this message");
      expectError(await edit(member, id, {}), 400, 'BAD_REQUEST', 'Nothing to change');
      expectError(await edit(member, id, { propagate_mode: 'change_all', content: 'x' }), 400, 'BAD_REQUEST', 'Invalid propagate_mode without topic edit');
      expectError(await edit(member, id, { content: 'x', stream_id: channel.id }), 400, 'BAD_REQUEST', 'Cannot change message content while changing channel');
      expect((await edit(member, id, { topic: 'x', propagate_mode: 'change_some' })).status).toBe(400);
      expectError(await edit(member, id, { content: 'x\u0000' }), 400, 'BAD_REQUEST', 'Message must not contain null bytes');
      expectError(await edit(member, 999999999, { content: 'x' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      const dm = await send(friend, { type: 'direct', to: JSON.stringify([admin.id]), content: 'private' });
      expectError(await edit(member, dm, { content: 'x' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await edit(friend, dm, { topic: 'x' }), 400, 'BAD_REQUEST', 'Direct messages cannot have topics.');
      expectError(await edit(friend, dm, { stream_id: channel.id }), 400, 'BAD_REQUEST', 'Direct messages cannot be moved to channels.');

      await ago(id, 3600);
      expectError(await edit(member, id, { content: 'too late' }), 400, 'BAD_REQUEST', 'The time limit for editing this message has passed');
      await system.db.realm.update({ where: { id: realm.id }, data: { messageContentEditLimitSeconds: null } });
      await system.db.realm.update({ where: { id: realm.id }, data: { allowMessageEditing: false } });
      expectError(await edit(member, id, { content: 'off' }), 400, 'BAD_REQUEST', 'Your organization has turned off message editing');
      await system.db.realm.update({ where: { id: realm.id }, data: { allowMessageEditing: true } });
      expect((await stored(id)).content).toBe('mine');
      expect((await stored(id)).editHistory).toBeNull();
      expectSuccess(await edit(member, id, { content: 'no limit now' }));
      await system.db.realm.update({ where: { id: realm.id }, data: { messageContentEditLimitSeconds: 600 } });
      await expectCallersRefused((options) => system.api.patch(`/messages/${id}`, { content: 'x' }, options), { subdomain, member, outsider, deactivated });
    });

    it('refuses a channel wildcard added in a large channel without can_mention_many_users_group', async () => {
      const crowd = [member, admin];
      for (let i = 0; i < 15; i++) crowd.push(await factory.user(realm, { fullName: `Crowd ${i}` }));
      const big = await factory.channel(realm, { name: `big ${Date.now()}`, subscribers: crowd });
      const id = await say(member, 'quiet', 't', big.name);
      expectError(
        await edit(member, id, { content: 'hey @**all**' }),
        400,
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      );
      expect((await stored(id)).content).toBe('quiet');
      const loud = await say(admin, 'quiet too', 't', big.name);
      expectSuccess(await edit(admin, loud, { content: 'hey @**all**' }));
      expect((await flagsOf(member, loud))! & 16).toBe(16);
    });

    it('records the files an edit links, as sending does', async () => {
      const pathId = `${realm.id}/ab/${'c'.repeat(24)}/notes.txt`;
      const file = await system.db.attachment.create({
        data: { realmId: realm.id, ownerId: member.id, pathId, fileName: 'notes.txt', size: 5, contentType: 'text/plain' },
      });
      const id = await say(member, 'file coming');
      expectSuccess(await edit(member, id, { content: `[notes.txt](/user_uploads/${pathId})` }));
      let links: unknown[] = [];
      for (let i = 0; i < 100 && links.length === 0; i++) {
        links = await system.db.attachmentMessage.findMany({ where: { attachmentId: file.id, messageId: id } });
        if (links.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(links).toHaveLength(1);
      expect((await stored(id)).hasAttachment).toBe(true); // what has:attachment searches, kept by the edit
    });

    it('keeps a consistent history under concurrent edits', async () => {
      const id = await say(member, 'v0');
      const results = await Promise.all([1, 2, 3, 4].map((n) => edit(member, id, { content: `v${n}` })));
      for (const res of results) expectSuccess(res);
      const history = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}/history`, {}, as(member)));
      const snapshots = history.message_history as { content: string; prev_content?: string }[];
      expect(snapshots).toHaveLength(5);
      for (let i = 1; i < snapshots.length; i++) expect(snapshots[i].prev_content).toBe(snapshots[i - 1].content);
      expect(snapshots[4].content).toBe((await stored(id)).content);
    });

    it('stores blank content as "(deleted)"', async () => {
      const id = await say(member, 'regret');
      expectSuccess(await edit(member, id, { content: '   ' }));
      expect((await stored(id)).content).toBe('(deleted)');
    });
  });

  describe('topics', () => {
    it('moves one message, later ones or the whole topic, with propagate_mode', async () => {
      const [a, b, c] = [await say(member, 'a', 'old'), await say(friend, 'b', 'old'), await say(member, 'c', 'old')];
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: ['update_message'] });
      expectSuccess(await edit(member, b, { topic: 'one', propagate_mode: 'change_one', send_notification_to_new_thread: false }));
      expect((await stored(a)).topic).toBe('old');
      expect((await stored(b)).topic).toBe('one');
      const [event] = await queue.waitFor('update_message');
      expect(event).toMatchObject({
        user_id: member.id,
        message_id: b,
        message_ids: [b],
        orig_subject: 'old',
        subject: 'one',
        topic_links: [],
        propagate_mode: 'change_one',
        stream_id: channel.id,
      });
      expect(event).not.toHaveProperty('content');
      expect(event).not.toHaveProperty('new_stream_id');
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: queue.received });

      expectSuccess(await edit(member, a, { topic: 'later', propagate_mode: 'change_later', send_notification_to_new_thread: false }));
      expect([(await stored(a)).topic, (await stored(b)).topic, (await stored(c)).topic]).toEqual(['later', 'one', 'later']);
      expectSuccess(await edit(friend, c, { topic: 'all', propagate_mode: 'change_all', send_notification_to_new_thread: false }));
      expect([(await stored(a)).topic, (await stored(c)).topic]).toEqual(['all', 'all']);
      expect((await stored(a)).lastMoveTime).not.toBeNull();
      const history = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${a}/history`, {}, as(friend)));
      expect(history.message_history.map((h: any) => [h.topic, h.prev_topic])).toEqual([
        ['old', undefined],
        ['later', 'old'],
        ['all', 'later'],
      ]);
    });

    it('posts the notification bot’s notices in the new and old topics when asked', async () => {
      const id = await say(member, 'wandering', 'from here');
      expectSuccess(await edit(member, id, { topic: 'to there', send_notification_to_old_thread: true, send_notification_to_new_thread: true }));
      const notices = async (topic: string) => {
        for (let i = 0; i < 50; i++) {
          const rows = await system.db.message.findMany({ where: { streamId: channel.id, topic, NOT: { id } } });
          if (rows.length > 0) return rows;
          await new Promise((r) => setTimeout(r, 100));
        }
        return [];
      };
      const [there] = await notices('to there');
      expect(there.content).toBe(`A message was moved here from #**${channel.name}>from here** by @_**${member.fullName}|${member.id}**.`);
      const [here] = await notices('from here');
      expect(here.content).toBe(`A message was moved from this topic to #**${channel.name}>to there** by @_**${member.fullName}|${member.id}**.`);
      const bot = await system.db.user.findUniqueOrThrow({ where: { id: there.senderId } });
      expect(bot.isBot).toBe(true);
    });

    it('resolves and unresolves a topic, with a notice', async () => {
      const id = await say(member, 'bug', 'crash');
      await system.db.userTopic.create({ data: { userId: friend.id, streamId: channel.id, topicName: 'crash', visibilityPolicy: 3 } });
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: ['user_topic'] });
      expectSuccess(await edit(friend, id, { topic: '✔ crash', propagate_mode: 'change_all' }));
      expect((await stored(id)).topic).toBe('✔ crash');
      // The whole topic moved: the follow moved with it.
      const policies = await system.db.userTopic.findMany({ where: { userId: friend.id, streamId: channel.id, topicName: { in: ['crash', '✔ crash'] } } });
      expect(policies.map((p) => [p.topicName, p.visibilityPolicy])).toEqual([['✔ crash', 3]]);
      const events = await queue.waitFor('user_topic', 2);
      expect(events.map((e) => [e.topic_name, e.visibility_policy])).toEqual([
        ['crash', 0],
        ['✔ crash', 3],
      ]);
      for (let i = 0; i < 50 && (await system.db.message.count({ where: { topic: '✔ crash' } })) < 2; i++) await new Promise((r) => setTimeout(r, 100));
      const notice = await system.db.message.findFirstOrThrow({ where: { topic: '✔ crash', NOT: { id } } });
      expect(notice.content).toBe(`@_**${friend.fullName}|${friend.id}** has marked this topic as resolved.`);
      expectSuccess(await edit(friend, id, { topic: 'crash', propagate_mode: 'change_all' }));
      expect((await stored(id)).topic).toBe('crash');
    });

    it('follows can_move_messages_between_topics_group, the channel’s own group, the resolve group and the time limit', async () => {
      const id = await say(member, 'stay', 'fixed');
      const nobody = await factory.systemGroupId(realm, 'role:nobody');
      await system.db.realm.update({ where: { id: realm.id }, data: { canMoveMessagesBetweenTopicsGroupId: nobody, canResolveTopicsGroupId: nobody } });
      await system.db.stream.update({ where: { id: channel.id }, data: { canResolveTopicsGroupId: nobody } });
      expectError(await edit(member, id, { topic: 'moved' }), 400, 'BAD_REQUEST', "You don't have permission to edit this message");
      expectError(await edit(member, id, { topic: '✔ fixed' }), 400, 'BAD_REQUEST', "You don't have permission to resolve topics in this channel.");
      expect((await stored(id)).topic).toBe('fixed');
      expectSuccess(await edit(admin, id, { topic: 'by admin', send_notification_to_new_thread: false }));
      await system.db.stream.update({ where: { id: channel.id }, data: { canMoveMessagesWithinChannelGroupId: await factory.systemGroupId(realm, 'role:members') } });
      expectSuccess(await edit(member, id, { topic: 'by channel rule', send_notification_to_new_thread: false }));
      await system.db.stream.update({ where: { id: channel.id }, data: { canMoveMessagesWithinChannelGroupId: nobody } });
      await system.db.realm.update({ where: { id: realm.id }, data: { canMoveMessagesBetweenTopicsGroupId: null, canResolveTopicsGroupId: null } });

      await ago(id, 8 * 24 * 3600);
      expectError(await edit(member, id, { topic: 'too late' }), 400, 'BAD_REQUEST', "The time limit for editing this message's topic has passed.");
      expectSuccess(await edit(moderator, id, { topic: 'moderated', send_notification_to_new_thread: false }));
      expect((await stored(id)).topic).toBe('moderated');
    });

    it('moves a whole topic for a member only when all of it is within the move limit (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED)', async () => {
      const [old, older, recent] = [await say(member, 'old', 'aged'), await say(friend, 'older', 'aged'), await say(member, 'recent', 'aged')];
      await ago(old, 8 * 24 * 3600);
      await ago(older, 9 * 24 * 3600);
      const res = await edit(member, recent, { topic: 'rejuvenated', propagate_mode: 'change_all', send_notification_to_new_thread: false });
      expectError(res, 400, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 'You only have permission to move the 1/3 most recent messages in this topic.', {
        first_message_id_allowed_to_move: recent,
        total_messages_in_topic: 3,
        total_messages_allowed_to_move: 1,
      });
      expect((await stored(recent)).topic).toBe('aged');
      // The recent part alone may move; a moderator moves the rest.
      expectSuccess(await edit(member, recent, { topic: 'rejuvenated', propagate_mode: 'change_later', send_notification_to_new_thread: false }));
      expect((await stored(recent)).topic).toBe('rejuvenated');
      expectSuccess(await edit(moderator, old, { topic: 'rejuvenated', propagate_mode: 'change_all', send_notification_to_new_thread: false }));
      expect((await stored(older)).topic).toBe('rejuvenated');
    });
  });

  describe('channels', () => {
    it('moves messages to another channel: new readers get them, those who lose access are told they are gone', async () => {
      const target = await factory.channel(realm, { name: `target ${Date.now()}`, inviteOnly: true, subscribers: [member, admin] });
      const id = await say(member, 'relocate', 'moving');
      const friendQueue = await EventQueueClient.register(system.api, as(friend), { event_types: ['update_message', 'delete_message'], client_capabilities: { bulk_message_deletion: true } });
      const adminQueue = await EventQueueClient.register(system.api, as(admin), { event_types: ['update_message'] });
      expectSuccess(await edit(member, id, { stream_id: target.id, send_notification_to_new_thread: false }));
      const message = await stored(id);
      expect(message.streamId).toBe(target.id);
      expect(message.topic).toBe('moving');
      expect(await flagsOf(friend, id)).toBeUndefined();
      const [gone] = await friendQueue.waitFor('delete_message');
      expect(gone).toMatchObject({ message_ids: [id], message_type: 'stream', stream_id: channel.id, topic: 'moving' });
      const [moved] = await adminQueue.waitFor('update_message');
      expect(moved).toMatchObject({ message_ids: [id], stream_id: channel.id, new_stream_id: target.id, orig_subject: 'moving', propagate_mode: 'change_one' });
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: target.id } })).firstMessageId).toBe(id);
      const history = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}/history`, {}, as(member)));
      expect(history.message_history[1]).toMatchObject({ stream: target.id, prev_stream: channel.id });
    });

    it('refuses guests (can_move_messages_between_channels_group is members), unknown channels, and past the limit', async () => {
      const other = await factory.channel(realm, { name: `other ${Date.now()}`, subscribers: [member, guest] });
      const id = await say(guest, 'guest words', 'g');
      expectError(await edit(guest, id, { stream_id: other.id }), 400, 'BAD_REQUEST', "You don't have permission to move this message");
      expectError(await edit(member, id, { stream_id: 999999 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      await ago(id, 8 * 24 * 3600);
      expectError(await edit(member, id, { stream_id: other.id }), 400, 'BAD_REQUEST', "The time limit for editing this message's channel has passed");
      expect((await stored(id)).streamId).toBe(channel.id);
    });
  });
});

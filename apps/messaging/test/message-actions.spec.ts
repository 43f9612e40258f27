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

describe('message actions: reading one message, history, rendering, reactions, deleting', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realm: { id: number };
  let admin: TestUser, member: TestUser, friend: TestUser, guest: TestUser, outsider: TestUser, deactivated: TestUser;
  let channel: { id: number; name: string };
  let secret: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const send = async (user: TestUser, form: Record<string, unknown>) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form as never, as(user))).id;
  const say = (user: TestUser, content: string, topic = 'talk') => send(user, { type: 'stream', to: channel.name, topic, content });
  const react = (user: TestUser, id: number, form: Record<string, unknown>) => system.api.post(`/messages/${id}/reactions`, form as never, as(user));
  const unreact = (user: TestUser, id: number, form: Record<string, unknown>) => system.api.delete(`/messages/${id}/reactions`, form as never, as(user));
  const reactionsOf = (messageId: number) => system.db.reaction.findMany({ where: { messageId }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'msgact' });
    subdomain = org.realm.subdomain;
    realm = org.realm;
    admin = org.admin;
    member = org.member;
    guest = org.guest;
    friend = await factory.user(org.realm, { fullName: 'Fred Friend' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'msgact-other' }), { role: Role.OWNER });
    channel = await factory.channel(org.realm, { name: 'lobby', subscribers: [member, friend, admin] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [friend] });
  });
  afterAll(() => system.stop());

  describe('GET /messages/{message_id}', () => {
    it('answers the message with its source, rendered or raw, and the caller’s flags', async () => {
      const id = await say(friend, `**hello** @**${member.fullName}**`);
      const body = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}`, {}, as(member)));
      expectMatchesOpenApi('get', '/messages/{message_id}', body);
      expect(body.raw_content).toBe(`**hello** @**${member.fullName}**`);
      expect(body.message).toMatchObject({ id, sender_id: friend.id, stream_id: channel.id, subject: 'talk', content_type: 'text/html', reactions: [] });
      expect(body.message.content).toContain('<strong>hello</strong>');
      expect(body.message.flags).toEqual(['mentioned']);
      const raw = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}`, { apply_markdown: false }, as(member)));
      expect(raw.message).toMatchObject({ content: `**hello** @**${member.fullName}**`, content_type: 'text/x-markdown' });
    });

    it('lets a non-subscriber read a public channel’s message through its history, but not a guest', async () => {
      const id = await say(friend, 'public words');
      const other = await factory.user(realm, { fullName: 'Nosy Newcomer' });
      const body = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}`, {}, as(other)));
      expect(body.message.flags).toEqual(['read', 'historical']);
      expectError(await system.api.get(`/messages/${id}`, {}, as(guest)), 400, 'BAD_REQUEST', 'Invalid message(s)');
    });

    it('refuses messages the caller may not read, unknown and malformed ids, and refused callers', async () => {
      const hidden = await send(friend, { type: 'stream', to: secret.name, topic: 'x', content: 'hush' });
      const dm = await send(friend, { type: 'direct', to: JSON.stringify([admin.id]), content: 'just us' });
      for (const id of [hidden, dm, 999999999]) {
        expectError(await system.api.get(`/messages/${id}`, {}, as(member)), 400, 'BAD_REQUEST', 'Invalid message(s)');
      }
      expectError(await system.api.get(`/messages/${2 ** 40}`, {}, as(member)), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expect((await system.api.get(`/messages/abc`, {}, as(member))).status).toBeGreaterThanOrEqual(400);
      expectError(await system.api.get(`/messages/${dm}`, { apply_markdown: 'yes' }, as(admin)), 400, 'BAD_REQUEST', 'apply_markdown is not valid JSON');
      await expectCallersRefused((options) => system.api.get(`/messages/${dm}`, {}, options), { subdomain, member: admin, outsider, deactivated });
    });
  });

  describe('POST /messages/render', () => {
    it('renders Markdown with mentions and stores nothing', async () => {
      const before = await system.db.message.count();
      const body = expectSuccess(await system.api.post<{ rendered: string }>('/messages/render', { content: `*hi* @**${friend.fullName}**` }, as(member)));
      expectMatchesOpenApi('post', '/messages/render', body);
      expect(body.rendered).toContain('<em>hi</em>');
      expect(body.rendered).toContain(`data-user-id="${friend.id}"`);
      expect(await system.db.message.count()).toBe(before);
    });

    it('refuses empty or missing content and refused callers', async () => {
      expectError(await system.api.post('/messages/render', { content: '   ' }, as(member)), 400, 'BAD_REQUEST', 'Message must not be empty');
      expectError(await system.api.post('/messages/render', {}, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' });
      await expectCallersRefused((options) => system.api.post('/messages/render', { content: 'x' }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('reactions', () => {
    it('adds a reaction by name, tells everyone who can see the message, and shows it in GET /messages', async () => {
      const id = await say(friend, 'react to me');
      const friendQueue = await EventQueueClient.register(system.api, as(friend), { event_types: ['reaction'] });
      const strangerQueue = await EventQueueClient.register(system.api, as(guest), { event_types: ['reaction'] });
      expectSuccess(await react(member, id, { emoji_name: 'octopus' }));
      expect(await reactionsOf(id)).toMatchObject([{ userId: member.id, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji' }]);
      const [event] = await friendQueue.waitFor('reaction');
      expect(event).toMatchObject({
        op: 'add',
        message_id: id,
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: member.id,
        user: { user_id: member.id, full_name: member.fullName },
      });
      expect(await strangerQueue.settle()).toEqual([]);

      const page = expectSuccess(
        await system.api.get<Record<string, any>>('/messages', { anchor: String(id), num_before: 0, num_after: 0, narrow: [] }, as(friend)),
      );
      expect(page.messages[0].reactions).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: member.id }]);
      const one = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}`, {}, as(friend)));
      expect(one.message.reactions).toHaveLength(1);
      const reacted = expectSuccess(
        await system.api.get<Record<string, any>>(
          '/messages',
          { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'channel', operand: channel.id }, { operator: 'has', operand: 'reaction' }] },
          as(friend),
        ),
      );
      expect(reacted.messages.map((m: { id: number }) => m.id)).toContain(id);
      expect(reacted.messages.every((m: { reactions: unknown[] }) => m.reactions.length > 0)).toBe(true);
    });

    it('takes a full name/code/type triple, the zulip emoji and custom emoji', async () => {
      const id = await say(friend, 'emoji galore');
      expectSuccess(await react(member, id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
      expectSuccess(await react(member, id, { emoji_name: 'zulip' }));
      const custom = await factory.customEmoji(realm, { name: 'partyparrot' });
      expectSuccess(await react(member, id, { emoji_name: 'partyparrot' }));
      expect((await reactionsOf(id)).map((r) => [r.emojiName, r.emojiCode, r.reactionType])).toEqual([
        ['thumbs_up', '1f44d', 'unicode_emoji'],
        ['zulip', 'zulip', 'zulip_extra_emoji'],
        ['partyparrot', String(custom.id), 'realm_emoji'],
      ]);
    });

    it('refuses a repeated reaction, unknown or mismatched emoji, and unreadable messages, changing nothing', async () => {
      const id = await say(friend, 'careful');
      expectSuccess(await react(member, id, { emoji_name: 'octopus' }));
      expectError(await react(member, id, { emoji_name: 'octopus' }), 400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
      expectError(await react(member, id, { emoji_name: 'no_such_emoji_here' }), 400, 'BAD_REQUEST', "Emoji 'no_such_emoji_here' does not exist");
      expectError(await react(member, id, { emoji_name: 'octopus', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 400, 'BAD_REQUEST', 'Invalid emoji name.');
      expectError(await react(member, id, { emoji_name: 'octopus', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }), 400, 'BAD_REQUEST', 'Invalid emoji code.');
      expectError(await react(member, id, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'weird' }), 400, 'BAD_REQUEST', 'Invalid emoji type.');
      const gone = await factory.customEmoji(realm, { name: 'retired', deactivated: true });
      expectError(await react(member, id, { emoji_name: 'retired', emoji_code: String(gone.id), reaction_type: 'realm_emoji' }), 400, 'BAD_REQUEST', 'This custom emoji has been deactivated.');
      expectError(await react(member, id, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument", { var_name: 'emoji_name' });
      const hidden = await send(friend, { type: 'stream', to: secret.name, topic: 'x', content: 'hush' });
      expectError(await react(member, hidden, { emoji_name: 'octopus' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectError(await react(guest, id, { emoji_name: 'octopus' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expect(await reactionsOf(id)).toHaveLength(1);
      expect(await reactionsOf(hidden)).toHaveLength(0);
      await expectCallersRefused((options) => system.api.post(`/messages/${id}/reactions`, { emoji_name: 'tada' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });

    it('removes a reaction by name or by code, with an event, and refuses one that does not exist', async () => {
      const id = await say(friend, 'fleeting');
      expectSuccess(await react(member, id, { emoji_name: 'octopus' }));
      expectSuccess(await react(member, id, { emoji_name: 'tada' }));
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: ['reaction'] });
      expectSuccess(await unreact(member, id, { emoji_name: 'octopus' }));
      const [event] = await queue.waitFor('reaction');
      expect(event).toMatchObject({ op: 'remove', message_id: id, emoji_name: 'octopus', emoji_code: '1f419', user_id: member.id });
      expectSuccess(await unreact(member, id, { emoji_code: '1f389' }));
      expect(await reactionsOf(id)).toEqual([]);
      expectError(await unreact(member, id, { emoji_name: 'octopus' }), 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
      expectError(await unreact(member, id, {}), 400, 'BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code');
      // Another's reaction is not the caller's to remove.
      expectSuccess(await react(friend, id, { emoji_name: 'octopus' }));
      expectError(await unreact(member, id, { emoji_name: 'octopus' }), 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
      expect(await reactionsOf(id)).toHaveLength(1);
      await expectCallersRefused((options) => system.api.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }, options), {
        subdomain,
        member: friend,
        outsider,
        deactivated,
      });
    });
  });

  describe('DELETE /messages/{message_id}', () => {
    it('lets the sender delete their message, telling those who could see it, and keeps first_message_id right', async () => {
      const fresh = await factory.channel(realm, { name: `fresh ${Date.now()}`, subscribers: [member, friend] });
      const first = await send(member, { type: 'stream', to: fresh.name, topic: 'a', content: 'first' });
      const second = await send(friend, { type: 'stream', to: fresh.name, topic: 'a', content: 'second' });
      await react(friend, first, { emoji_name: 'octopus' });
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: ['delete_message', 'stream'], client_capabilities: { bulk_message_deletion: true } });
      const bystander = await EventQueueClient.register(system.api, as(admin), { event_types: ['delete_message'] });
      const body = expectSuccess(await system.api.delete(`/messages/${first}`, {}, as(member)));
      expectMatchesOpenApi('delete', '/messages/{message_id}', body);
      expect(await system.db.message.findUnique({ where: { id: first } })).toBeNull();
      expect(await system.db.userMessage.count({ where: { messageId: first } })).toBe(0);
      expect(await reactionsOf(first)).toEqual([]);
      expect((await system.db.stream.findUniqueOrThrow({ where: { id: fresh.id } })).firstMessageId).toBe(second);
      const [event] = await queue.waitFor('delete_message');
      expect(event).toMatchObject({ message_ids: [first], message_type: 'stream', stream_id: fresh.id, topic: 'a' });
      const [update] = await queue.waitFor('stream');
      expect(update).toMatchObject({ op: 'update', property: 'first_message_id', value: second, stream_id: fresh.id });
      expect(await bystander.settle()).toEqual([]);
    });

    it('deletes a direct message for its participants, one event per id for older clients', async () => {
      const dm = await send(member, { type: 'direct', to: JSON.stringify([friend.id]), content: 'oops' });
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: ['delete_message'] });
      expectSuccess(await system.api.delete(`/messages/${dm}`, {}, as(member)));
      const [event] = await queue.waitFor('delete_message');
      expect(event).toMatchObject({ message_id: dm, message_type: 'private' });
    });

    it('lets administrators delete anyone’s message, and nobody else', async () => {
      const id = await say(friend, 'moderate me');
      expectError(await system.api.delete(`/messages/${id}`, {}, as(member)), 400, 'BAD_REQUEST', "You don't have permission to delete this message");
      expect(await system.db.message.count({ where: { id } })).toBe(1);
      expectSuccess(await system.api.delete(`/messages/${id}`, {}, as(admin)));
      expect(await system.db.message.count({ where: { id } })).toBe(0);
      expectError(await system.api.delete(`/messages/${id}`, {}, as(admin)), 400, 'BAD_REQUEST', 'Invalid message(s)');
    });

    it('follows the organization’s delete limit and can_delete_own_message_group', async () => {
      const old = await say(member, 'from long ago');
      await system.db.message.update({ where: { id: old }, data: { dateSent: new Date(Date.now() - 3600 * 1000) } });
      await system.db.realm.update({ where: { id: realm.id }, data: { messageContentDeleteLimitSeconds: 600 } });
      expectError(await system.api.delete(`/messages/${old}`, {}, as(member)), 400, 'BAD_REQUEST', 'The time limit for deleting this message has passed');
      const recent = await say(member, 'just now');
      const nobody = await factory.systemGroupId(realm, 'role:nobody');
      await system.db.realm.update({ where: { id: realm.id }, data: { canDeleteOwnMessageGroupId: nobody } });
      await system.db.stream.update({ where: { id: channel.id }, data: { canDeleteOwnMessageGroupId: nobody } });
      expectError(await system.api.delete(`/messages/${recent}`, {}, as(member)), 400, 'BAD_REQUEST', "You don't have permission to delete this message");
      expectSuccess(await system.api.delete(`/messages/${old}`, {}, as(admin))); // administrators are not limited
      await system.db.realm.update({ where: { id: realm.id }, data: { messageContentDeleteLimitSeconds: null, canDeleteOwnMessageGroupId: null } });
      expectSuccess(await system.api.delete(`/messages/${recent}`, {}, as(member)));
      await expectCallersRefused((options) => system.api.delete(`/messages/${recent}`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('GET /messages/{message_id}/history', () => {
    it('answers the original alone for a message never edited', async () => {
      const id = await say(friend, 'pristine');
      const body = expectSuccess(await system.api.get<Record<string, any>>(`/messages/${id}/history`, {}, as(member)));
      expectMatchesOpenApi('get', '/messages/{message_id}/history', body);
      expect(body.message_history).toEqual([
        { topic: 'talk', content: 'pristine', rendered_content: '<p>pristine</p>', timestamp: expect.any(Number), user_id: friend.id },
      ]);
      expectError(await system.api.get(`/messages/999999999/history`, {}, as(member)), 400, 'BAD_REQUEST', 'Invalid message(s)');
      await expectCallersRefused((options) => system.api.get(`/messages/${id}/history`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });
});

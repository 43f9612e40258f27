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

describe('channel administration', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, creator: TestUser, guest: TestUser;
  let outsider: TestUser, deactivated: TestUser;
  const group = new Map<string, number>();
  let counter = 0;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const patch = (user: TestUser, id: number, form: Record<string, unknown>) => system.api.patch(`/streams/${id}`, form as never, as(user));
  const stored = (id: number) => system.db.stream.findUniqueOrThrow({ where: { id } });
  const newChannel = (input: { inviteOnly?: boolean; subscribers?: TestUser[] } = {}) =>
    factory.channel({ id: realmId }, { name: `room ${counter++}`, creator, subscribers: [creator, member, ...(input.subscribers ?? [])], ...input });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'chanadmin' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR });
    creator = await factory.user(org.realm, { fullName: 'Cree Ator' });
    deactivated = await factory.user(org.realm, { isActive: false });
    outsider = await factory.user(await factory.organization({ subdomain: 'chanadmin-other' }), { role: Role.OWNER });
    for (const name of ['role:nobody', 'role:everyone', 'role:members', 'role:administrators', 'role:internet', 'role:moderators']) {
      group.set(name, await factory.systemGroupId(org.realm, name));
    }
  });
  afterAll(() => system.stop());

  describe('GET /streams/{stream_id}', () => {
    it('shows a channel with its permission groups at Zulip’s defaults', async () => {
      const channel = await newChannel();
      const body = expectSuccess(await system.api.get(`/streams/${channel.id}`, {}, as(member)));
      expectMatchesOpenApi('get', '/streams/{stream_id}', body);
      expect(body.stream).toMatchObject({
        stream_id: channel.id,
        name: channel.name,
        folder_id: null,
        message_retention_days: null,
        can_administer_channel_group: { direct_members: [creator.id], direct_subgroups: [] },
        can_send_message_group: group.get('role:everyone'),
        can_remove_subscribers_group: group.get('role:administrators'),
        can_subscribe_group: group.get('role:nobody'),
        can_add_subscribers_group: group.get('role:nobody'),
      });
    });

    it('hides a private channel from those who may not see it', async () => {
      const secret = await factory.channel({ id: realmId }, { name: `secret ${counter++}`, inviteOnly: true, subscribers: [owner] });
      expectError(await system.api.get(`/streams/${secret.id}`, {}, as(member)), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectSuccess(await system.api.get(`/streams/${secret.id}`, {}, as(admin)));
      expectError(await system.api.get('/streams/999999', {}, as(member)), 400, 'BAD_REQUEST', 'Invalid channel ID');
      await expectCallersRefused((options) => system.api.get(`/streams/${secret.id}`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH /streams/{stream_id}', () => {
    it('lets the channel’s administrator rename and describe it, one event per property to those who see it', async () => {
      const channel = await newChannel();
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['stream'] });
      const res = await patch(creator, channel.id, { new_name: `${channel.name} renamed`, description: 'Now with **words**' });
      expectMatchesOpenApi('patch', '/streams/{stream_id}', expectSuccess(res));
      expect(await stored(channel.id)).toMatchObject({
        name: `${channel.name} renamed`,
        description: 'Now with **words**',
        renderedDescription: '<p>Now with <strong>words</strong></p>',
      });
      const events = await queue.waitFor('stream', 2);
      expect(events.map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'name', value: `${channel.name} renamed` },
        {
          type: 'stream',
          op: 'update',
          stream_id: channel.id,
          name: channel.name,
          property: 'description',
          value: 'Now with **words**',
          rendered_description: '<p>Now with <strong>words</strong></p>',
        },
      ]);
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: queue.received });
    });

    it('refuses members who do not administer the channel, guests, and bad input, changing nothing', async () => {
      const channel = await newChannel({ subscribers: [guest] });
      const before = await stored(channel.id);
      expectError(await patch(member, channel.id, { description: 'mine' }), 400, 'BAD_REQUEST', 'You do not have permission to administer this channel.');
      expectError(await patch(guest, channel.id, { description: 'mine' }), 400, 'BAD_REQUEST', 'You do not have permission to administer this channel.');
      expectError(await patch(creator, channel.id, {}), 400, 'BAD_REQUEST', 'No new data supplied');
      const other = await newChannel();
      expectError(await patch(creator, channel.id, { new_name: other.name.toUpperCase() }), 400, 'BAD_REQUEST', 'Channel name already in use.');
      expectError(await patch(creator, channel.id, { new_name: '  ' }), 400, 'BAD_REQUEST', "Channel name can't be empty.");
      expectError(await patch(creator, channel.id, { folder_id: 999999 }), 400, 'BAD_REQUEST', 'Invalid channel folder ID');
      expectError(await patch(creator, channel.id, { is_private: 'maybe' }), 400, 'BAD_REQUEST', 'is_private is not valid JSON');
      expectError(await patch(creator, 999999, { description: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expect(await stored(channel.id)).toEqual(before);
      await expectCallersRefused((options) => system.api.patch(`/streams/${channel.id}`, { description: 'z' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });

    it('puts a channel in a folder and takes it out, refusing an archived folder', async () => {
      const channel = await newChannel();
      const folder = await system.db.channelFolder.create({ data: { realmId, name: `folder ${counter++}` } });
      const archived = await system.db.channelFolder.create({ data: { realmId, name: `old ${counter++}`, isArchived: true } });
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['stream'] });
      expectSuccess(await patch(creator, channel.id, { folder_id: folder.id }));
      expect((expectSuccess(await system.api.get(`/streams/${channel.id}`, {}, as(member))).stream as { folder_id: number }).folder_id).toBe(folder.id);
      expect((await queue.waitFor('stream'))[0]).toMatchObject({ property: 'folder_id', value: folder.id });
      expectError(await patch(creator, channel.id, { folder_id: archived.id }), 400, 'BAD_REQUEST', 'Invalid channel folder ID');
      expectSuccess(await patch(creator, channel.id, { folder_id: null }));
      expect((await stored(channel.id)).folderId).toBeNull();
    });

    it('leaves retention to owners', async () => {
      const channel = await newChannel();
      expectError(await patch(admin, channel.id, { message_retention_days: 30 }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectSuccess(await patch(owner, channel.id, { message_retention_days: 30 }));
      expect((await stored(channel.id)).messageRetentionDays).toBe(30);
      expectSuccess(await patch(owner, channel.id, { message_retention_days: JSON.stringify('unlimited') }));
      expect((expectSuccess(await system.api.get(`/streams/${channel.id}`, {}, as(member))).stream as { message_retention_days: number }).message_retention_days).toBe(-1);
      expectSuccess(await patch(owner, channel.id, { message_retention_days: JSON.stringify('realm_default') }));
      expect((await stored(channel.id)).messageRetentionDays).toBeNull();
      expectError(await patch(owner, channel.id, { message_retention_days: 0 }), 400, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days': 0", {
        var_name: 'message_retention_days',
      });
    });

    it('makes a channel private: those who no longer see it are told it is gone', async () => {
      const channel = await newChannel();
      const outsiderQueue = await EventQueueClient.register(system.api, as(moderator), { event_types: ['stream'] });
      const memberQueue = await EventQueueClient.register(system.api, as(member), { event_types: ['stream'] });
      expectSuccess(await patch(admin, channel.id, { is_private: true, history_public_to_subscribers: false }));
      expect(await stored(channel.id)).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false });
      expect((await outsiderQueue.waitFor('stream'))[0]).toMatchObject({ op: 'delete', stream_ids: [channel.id] });
      const updates = await memberQueue.waitFor('stream', 2);
      expect(updates.map((e) => e.property)).toEqual(['invite_only', 'history_public_to_subscribers']);
      expect(updates[0]).toMatchObject({ value: true, history_public_to_subscribers: false, is_web_public: false });
      expectError(await patch(admin, channel.id, { is_web_public: true }), 400, 'BAD_REQUEST', 'Invalid parameters');
      expectError(await patch(creator, channel.id, { is_private: false, is_web_public: true }), 400, 'BAD_REQUEST', 'Insufficient permission');
    });

    it('changes permission groups with {new, old}, through the one membership rule', async () => {
      const channel = await newChannel();
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['stream'] });
      expectSuccess(
        await patch(creator, channel.id, {
          can_send_message_group: { new: group.get('role:administrators'), old: group.get('role:everyone') },
          can_administer_channel_group: { new: { direct_members: [creator.id, moderator.id], direct_subgroups: [] } },
        }),
      );
      const events = await queue.waitFor('stream', 2);
      expect(events.map(({ property, value }) => ({ property, value }))).toEqual([
        { property: 'can_administer_channel_group', value: { direct_members: [creator.id, moderator.id].sort((a, b) => a - b), direct_subgroups: [] } },
        { property: 'can_send_message_group', value: group.get('role:administrators') },
      ]);
      // The moderator administers it now.
      expectSuccess(await patch(moderator, channel.id, { description: 'moderated' }));
      expectError(
        await patch(creator, channel.id, { can_send_message_group: { new: group.get('role:members'), old: group.get('role:everyone') } }),
        400,
        'EXPECTATION_MISMATCH',
        "'old' value does not match the expected value.",
      );
      expectError(
        await patch(creator, channel.id, { can_subscribe_group: { new: group.get('role:internet') } }),
        400,
        'BAD_REQUEST',
        "'can_subscribe_group' setting cannot be set to 'role:internet' group.",
      );
      expectError(
        await patch(creator, channel.id, { can_subscribe_group: { new: group.get('role:everyone') } }),
        400,
        'BAD_REQUEST',
        "'can_subscribe_group' setting cannot be set to 'role:everyone' group.",
      );
      expect((await stored(channel.id)).canSendMessageGroupId).toBe(group.get('role:administrators'));
    });
  });

  describe('can_send_message_group', () => {
    it('decides who may post, with Zulip’s error, storing nothing when refused', async () => {
      const channel = await newChannel({ subscribers: [admin] });
      await system.db.stream.update({ where: { id: channel.id }, data: { canSendMessageGroupId: group.get('role:administrators') } });
      const before = await system.db.message.count();
      const send = (user: TestUser) =>
        system.api.post('/messages', { type: 'stream', to: channel.id, topic: 'news', content: 'hello' }, as(user));
      expectError(await send(member), 400, 'BAD_REQUEST', 'You do not have permission to post in this channel.');
      expect(await system.db.message.count()).toBe(before);
      expectSuccess(await send(admin));
      const team = await factory.userGroup({ id: realmId }, { members: [member] });
      await system.db.stream.update({ where: { id: channel.id }, data: { canSendMessageGroupId: team.id } });
      expectSuccess(await send(member));
    });
  });

  describe('subscriptions follow the channel’s groups', () => {
    const subscribe = (user: TestUser, name: string, form: Record<string, unknown> = {}) =>
      system.api.post('/users/me/subscriptions', { subscriptions: [{ name }], ...form } as never, as(user));
    const unsubscribe = (user: TestUser, name: string, principals: number[]) =>
      system.api.delete('/users/me/subscriptions', { subscriptions: [name], principals } as never, as(user));

    it('creates a channel with the folder and permission groups asked for', async () => {
      const folder = await system.db.channelFolder.create({ data: { realmId, name: `new folder ${counter++}` } });
      const name = `made ${counter++}`;
      expectSuccess(
        await subscribe(member, name, {
          folder_id: folder.id,
          can_send_message_group: group.get('role:administrators'),
          can_remove_subscribers_group: { direct_members: [member.id], direct_subgroups: [] },
        }),
      );
      const channel = await system.db.stream.findFirstOrThrow({ where: { realmId, name } });
      const { stream } = expectSuccess(await system.api.get(`/streams/${channel.id}`, {}, as(member))) as { stream: Record<string, unknown> };
      expect(stream).toMatchObject({
        folder_id: folder.id,
        can_send_message_group: group.get('role:administrators'),
        can_remove_subscribers_group: { direct_members: [member.id], direct_subgroups: [] },
        can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
      });
      const before = await system.db.stream.count();
      expectError(
        await subscribe(member, `refused ${counter++}`, { can_subscribe_group: group.get('role:internet') }),
        400,
        'BAD_REQUEST',
        "'can_subscribe_group' setting cannot be set to 'role:internet' group.",
      );
      expectError(await subscribe(member, `refused ${counter++}`, { folder_id: 999999 }), 400, 'BAD_REQUEST', 'Invalid channel folder ID');
      expect(await system.db.stream.count()).toBe(before);
    });

    it('lets can_subscribe_group join a private channel, and can_add_subscribers_group add others to it', async () => {
      const secret = await factory.channel({ id: realmId }, { name: `private ${counter++}`, inviteOnly: true, subscribers: [owner] });
      expectError(await subscribe(member, secret.name), 400, 'BAD_REQUEST', `Unable to access channel (${secret.name}).`);
      await system.db.stream.update({ where: { id: secret.id }, data: { canSubscribeGroupId: group.get('role:members') } });
      expectSuccess(await subscribe(member, secret.name));

      expectError(await subscribe(moderator, secret.name, { principals: [creator.id] }), 400, 'BAD_REQUEST', `Unable to access channel (${secret.name}).`);
      await system.db.stream.update({ where: { id: secret.id }, data: { canAddSubscribersGroupId: group.get('role:moderators') } });
      expectSuccess(await subscribe(moderator, secret.name, { principals: [creator.id] }));
      expect(await system.db.subscription.count({ where: { streamId: secret.id, userId: creator.id, active: true } })).toBe(1);
    });

    it('lets can_remove_subscribers_group remove others', async () => {
      const channel = await newChannel({ subscribers: [moderator] });
      expectError(await unsubscribe(member, channel.name, [moderator.id]), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect(await system.db.subscription.count({ where: { streamId: channel.id, userId: moderator.id, active: true } })).toBe(1);
      await system.db.stream.update({ where: { id: channel.id }, data: { canRemoveSubscribersGroupId: group.get('role:members') } });
      expectSuccess(await unsubscribe(member, channel.name, [moderator.id]));
      expect(await system.db.subscription.count({ where: { streamId: channel.id, userId: moderator.id, active: true } })).toBe(0);
      // Guests never remove others, whatever the group.
      const withGuest = await newChannel({ subscribers: [guest, moderator] });
      await system.db.stream.update({ where: { id: withGuest.id }, data: { canRemoveSubscribersGroupId: group.get('role:everyone') } });
      expectError(await unsubscribe(guest, withGuest.name, [moderator.id]), 400, 'BAD_REQUEST', 'Insufficient permission');
    });
  });

  describe('DELETE /streams/{stream_id}', () => {
    it('archives a channel for its administrators; those who saw it are told it is gone; nobody can post to it', async () => {
      const channel = await newChannel();
      const queue = await EventQueueClient.register(system.api, as(moderator), { event_types: ['stream'] });
      expectError(await system.api.delete(`/streams/${channel.id}`, {}, as(member)), 400, 'BAD_REQUEST', 'You do not have permission to administer this channel.');
      const res = await system.api.delete(`/streams/${channel.id}`, {}, as(creator));
      expectMatchesOpenApi('delete', '/streams/{stream_id}', expectSuccess(res));
      expect((await stored(channel.id)).isArchived).toBe(true);
      expect((await queue.waitFor('stream'))[0]).toMatchObject({ op: 'delete', stream_ids: [channel.id] });
      expectError(await system.api.delete(`/streams/${channel.id}`, {}, as(creator)), 400, 'BAD_REQUEST', 'Channel is already deactivated');
      const sent = await system.api.post('/messages', { type: 'stream', to: channel.id, topic: 't', content: 'late' }, as(member));
      expectError(sent, 400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${channel.id}' does not exist`, { stream_id: channel.id });
      await expectCallersRefused((options) => system.api.delete(`/streams/${channel.id}`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });
});

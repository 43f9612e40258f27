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
  type QueueEvent,
  type TestUser,
} from '@teamchat/testing';

const REALM_CHANGED = 'event.users-groups.realm_changed.v1';
const DOMAINS_CHANGED = 'event.users-groups.realm_domains_changed.v1';

type Body = Record<string, unknown>;

describe('organization settings: PATCH /realm, allowed domains, Welcome Bot', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let realmId: number;
  let subdomain: string;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, deactivated: TestUser;
  let outsiderAdmin: TestUser;
  let elsewhereId: number;
  let everyoneActive: number[];
  let publicChannel: { id: number }, privateChannel: { id: number }, foreignChannel: { id: number };
  let groups: Record<string, number>;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const patch = (user: TestUser, form: Body) => system.api.patch<Body>('/realm', form as never, as(user));
  const row = () => system.db.realm.findUniqueOrThrow({ where: { id: realmId } });
  const register = async (user: TestUser, fetch: string[]) =>
    expectSuccess(await system.api.post<Body>('/register', { fetch_event_types: fetch }, as(user)));
  const realmEvents = async (count: number) => (await events.waitFor<ClientEvent>(REALM_CHANGED, count)).map((published) => published.event);
  const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

  /** Polls a queue without acknowledging until `count` events are pending, each answer checked against the document. */
  async function pollUntil(queue: EventQueueClient, count: number): Promise<QueueEvent[]> {
    for (let attempt = 0; ; attempt++) {
      const body = expectSuccess(await queue.request({ dontBlock: true }));
      expectMatchesOpenApi('get', '/events', body);
      const pending = body.events.filter((event) => event.type !== 'heartbeat');
      if (pending.length >= count || attempt > 100) return pending;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'settings', name: 'Settings Org' });
    realmId = org.realm.id;
    subdomain = org.realm.subdomain;
    ({ owner, admin, member, guest } = org);
    moderator = await factory.user(org.realm, { role: Role.MODERATOR });
    deactivated = await factory.user(org.realm, { isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'settings-elsewhere' });
    elsewhereId = elsewhere.id;
    outsiderAdmin = await factory.user(elsewhere, { role: Role.ADMINISTRATOR });
    publicChannel = await factory.channel(org.realm, { name: 'lobby', subscribers: [member, admin] });
    privateChannel = await factory.channel(org.realm, { name: 'reports', inviteOnly: true, subscribers: [owner] });
    foreignChannel = await factory.channel(elsewhere, { name: 'theirs' });
    everyoneActive = sortedIds([owner.id, admin.id, member.id, guest.id, moderator.id]);
    const names = ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet'];
    groups = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await factory.systemGroupId(org.realm, name)] as const)));
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());

  describe('value settings', () => {
    it('changes several at once, answers each new value, announces each to everyone active as Zulip does, and register shows them', async () => {
      events.clear();
      const queue = await EventQueueClient.register(system.api, as(guest), { event_types: ['realm'] });
      const res = await patch(admin, {
        name: 'Renamed Org',
        description: 'All about us',
        allow_message_editing: false,
        message_content_edit_limit_seconds: 3600,
        message_content_delete_limit_seconds: JSON.stringify('unlimited'),
        video_chat_provider: 0,
        message_edit_history_visibility_policy: 'moves',
        topics_policy: 'disable_empty_topic',
        digest_weekday: 4,
        default_language: 'de',
        jitsi_server_url: JSON.stringify('https://meet.example.test'),
        enable_guest_user_indicator: false,
        welcome_message_custom_text: 'Read #**lobby** first.',
        org_type: 20,
      });
      const body = expectSuccess(res);
      expectMatchesOpenApi('patch', '/realm', body);
      // Texts answer "updated"; the delete limit was already unlimited, so it is not named.
      expect(body).toEqual({
        result: 'success',
        msg: '',
        name: 'updated',
        description: 'updated',
        allow_message_editing: false,
        message_content_edit_limit_seconds: 3600,
        video_chat_provider: 0,
        message_edit_history_visibility_policy: 'updated',
        topics_policy: 'updated',
        digest_weekday: 4,
        default_language: 'updated',
        jitsi_server_url: 'updated',
        enable_guest_user_indicator: false,
        welcome_message_custom_text: 'updated',
        org_type: 20,
      });
      expect(await row()).toMatchObject({
        name: 'Renamed Org',
        description: 'All about us',
        allowMessageEditing: false,
        messageContentEditLimitSeconds: 3600,
        messageContentDeleteLimitSeconds: null,
        videoChatProvider: 0,
        messageEditHistoryVisibilityPolicy: 2,
        topicsPolicy: 3,
        digestWeekday: 4,
        defaultLanguage: 'de',
        jitsiServerUrl: 'https://meet.example.test',
        enableGuestUserIndicator: false,
        orgType: 20,
      });

      const published = await events.waitFor<ClientEvent>(REALM_CHANGED, 13);
      expect(await events.settle(REALM_CHANGED)).toHaveLength(13);
      for (const event of published) expect(sortedIds(event.users)).toEqual(everyoneActive);
      expect(published.map((p) => p.event)).toEqual(
        expect.arrayContaining([
          { type: 'realm', op: 'update', property: 'name', value: 'Renamed Org' },
          { type: 'realm', op: 'update', property: 'description', value: 'All about us' },
          { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
          { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 3600 } },
          { type: 'realm', op: 'update', property: 'video_chat_provider', value: 0 },
          { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'moves' },
          { type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } },
          { type: 'realm', op: 'update', property: 'digest_weekday', value: 4 },
          { type: 'realm', op: 'update', property: 'default_language', value: 'de' },
          { type: 'realm', op: 'update', property: 'jitsi_server_url', value: 'https://meet.example.test' },
          { type: 'realm', op: 'update', property: 'enable_guest_user_indicator', value: false },
          { type: 'realm', op: 'update', property: 'welcome_message_custom_text', value: 'Read #**lobby** first.' },
          { type: 'realm', op: 'update', property: 'org_type', value: 20 },
        ]),
      );
      // A guest's queue gets them, as GET /events describes them.
      expect(await pollUntil(queue, 13)).toHaveLength(13);

      expect(await register(member, ['realm'])).toMatchObject({
        realm_name: 'Renamed Org',
        realm_description: 'All about us',
        realm_allow_message_editing: false,
        realm_message_content_edit_limit_seconds: 3600,
        realm_message_content_delete_limit_seconds: null,
        realm_video_chat_provider: 0,
        realm_message_edit_history_visibility_policy: 'moves',
        realm_allow_edit_history: true,
        realm_topics_policy: 'disable_empty_topic',
        realm_mandatory_topics: true,
        realm_digest_weekday: 4,
        realm_default_language: 'de',
        realm_jitsi_server_url: 'https://meet.example.test',
        realm_enable_guest_user_indicator: false,
        realm_welcome_message_custom_text: 'Read #**lobby** first.',
        realm_org_type: 20,
      });
    });

    it('changes nothing and announces nothing for values already set; "default" and "unlimited" store none', async () => {
      events.clear();
      const res = await patch(admin, { name: 'Renamed Org', allow_message_editing: false, digest_weekday: 4 });
      expect(expectSuccess(res)).toEqual({ result: 'success', msg: '' });
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);

      expect(expectSuccess(await patch(admin, { jitsi_server_url: JSON.stringify('default'), message_content_edit_limit_seconds: JSON.stringify('unlimited'), message_edit_history_visibility_policy: 'none' })))
        .toMatchObject({ jitsi_server_url: null, message_content_edit_limit_seconds: null, message_edit_history_visibility_policy: 'updated' });
      expect(await row()).toMatchObject({ jitsiServerUrl: null, messageContentEditLimitSeconds: null, messageEditHistoryVisibilityPolicy: 3 });
      expect(await realmEvents(3)).toEqual(
        expect.arrayContaining([
          { type: 'realm', op: 'update', property: 'jitsi_server_url', value: null },
          { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
        ]),
      );
      expect(await register(member, ['realm'])).toMatchObject({ realm_allow_edit_history: false, realm_jitsi_server_url: null });
      // Back to Zulip's defaults for the tests below.
      expectSuccess(await patch(admin, { allow_message_editing: true, message_content_edit_limit_seconds: 600, message_edit_history_visibility_policy: 'all' }));
    });

    it('reports parameters it does not know, such as the removed allow_edit_history, as unsupported', async () => {
      const body = expectSuccess(await patch(admin, { allow_edit_history: false, enable_read_receipts: false }));
      expect(body).toMatchObject({ enable_read_receipts: false, ignored_parameters_unsupported: ['allow_edit_history'] });
      expect((await row()).enableReadReceipts).toBe(false);
    });

    it.each([
      [{ name: 'x'.repeat(41) }, 'BAD_REQUEST', 'name is too long (limit: 40 characters)', {}],
      [{ description: 'x'.repeat(1001) }, 'BAD_REQUEST', 'description is too long (limit: 1000 characters)', {}],
      [{ welcome_message_custom_text: 'x'.repeat(8001) }, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)', {}],
      [{ default_language: 'xx' }, 'BAD_REQUEST', "Invalid language 'xx'", {}],
      [{ video_chat_provider: 3 }, 'BAD_REQUEST', 'Invalid video_chat_provider 3', {}],
      [{ giphy_rating: 9 }, 'BAD_REQUEST', 'Invalid giphy_rating 9', {}],
      [{ digest_weekday: 7 }, 'BAD_REQUEST', 'Invalid digest_weekday', {}],
      [{ org_type: 11 }, 'BAD_REQUEST', 'Invalid org_type', {}],
      [{ topics_policy: 'sometimes' }, 'BAD_REQUEST', 'Invalid topics_policy', {}],
      [{ message_edit_history_visibility_policy: 'some' }, 'BAD_REQUEST', 'Invalid message_edit_history_visibility_policy', {}],
      [{ message_content_edit_limit_seconds: 0 }, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_content_edit_limit_seconds': 0", { var_name: 'message_content_edit_limit_seconds', bad_value: 0 }],
      [
        { move_messages_within_stream_limit_seconds: JSON.stringify('forever') },
        'REQUEST_VARIABLE_INVALID',
        "Bad value for 'move_messages_within_stream_limit_seconds': forever",
        { var_name: 'move_messages_within_stream_limit_seconds', bad_value: 'forever' },
      ],
      [{ jitsi_server_url: JSON.stringify('not a url') }, 'BAD_REQUEST', 'jitsi_server_url is not an allowed_type', {}],
      [{ allow_message_editing: 'maybe' }, 'BAD_REQUEST', 'allow_message_editing is not valid JSON', {}],
      [{ enable_spectator_access: 1 }, 'BAD_REQUEST', 'enable_spectator_access is not a boolean', {}],
      [{ moderation_request_channel_id: 'x' }, 'BAD_REQUEST', 'moderation_request_channel_id is not valid JSON', {}],
    ] as [Body, string, string, Body][])('refuses bad value %#, changing nothing', async (form, code, msg, extra) => {
      const before = await row();
      events.clear();
      // A good change rides along: the whole request is refused. (Every row has four entries: jest takes a
      // callback with more parameters than its row for a `done` callback.)
      const res = await patch(admin, { name: 'Should not stick', ...form });
      expectError(res, 400, code, msg, extra);
      expectMatchesOpenApi('patch', '/realm', res.body, 400);
      expect(await row()).toEqual(before);
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);
    });
  });

  describe('who may change what', () => {
    it.each([
      ['a moderator', () => moderator],
      ['a member', () => member],
      ['a guest', () => guest],
    ])('refuses %s: administrators only', async (_who, caller) => {
      const before = await row();
      expectError(await patch(caller(), { name: 'Mine now' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expect(await row()).toEqual(before);
    });

    it.each([
      [{ invite_required: false }],
      [{ emails_restricted_to_domains: true }],
      [{ disallow_disposable_email_addresses: false }],
      [{ waiting_period_threshold: 3 }],
      [{ message_retention_days: 30 }],
      [{ can_create_groups: JSON.stringify({ new: 0 }) }],
      [{ can_invite_users_group: JSON.stringify({ new: 0 }) }],
      [{ can_manage_all_groups: JSON.stringify({ new: 0 }) }],
      [{ can_manage_billing_group: JSON.stringify({ new: 0 }) }],
      [{ create_multiuse_invite_group: JSON.stringify({ new: 0 }) }],
    ])('refuses %j to administrators: owners only', async (form) => {
      const before = await row();
      expectError(await patch(admin, { name: 'Admin was here', ...form }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expect(await row()).toEqual(before);
    });

    it('lets owners change the owner-only settings; retention is stored, "unlimited" is -1', async () => {
      const body = expectSuccess(await patch(owner, { invite_required: false, waiting_period_threshold: 3, message_retention_days: 30, disallow_disposable_email_addresses: false }));
      expect(body).toMatchObject({ invite_required: false, waiting_period_threshold: 3, message_retention_days: 30, disallow_disposable_email_addresses: false });
      expect(await row()).toMatchObject({ inviteRequired: false, waitingPeriodThreshold: 3, messageRetentionDays: 30 });
      expectError(await patch(owner, { message_retention_days: 0 }), 400, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days': 0", {
        var_name: 'message_retention_days',
        bad_value: 0,
      });
      expectSuccess(await patch(owner, { message_retention_days: JSON.stringify('unlimited'), waiting_period_threshold: 0 }));
      expect(await register(member, ['realm'])).toMatchObject({ realm_invite_required: false, realm_message_retention_days: -1, realm_waiting_period_threshold: 0 });
    });

    it('refuses callers without valid credentials, deactivated ones, and those of another organization', async () => {
      const before = await row();
      await expectCallersRefused((options) => system.api.patch('/realm', { name: 'Hijacked' }, options), { subdomain, member: admin, outsider: outsiderAdmin, deactivated });
      expect(await row()).toEqual(before);
    });

    it("changes only the caller's organization", async () => {
      const theirs = await system.db.realm.findUniqueOrThrow({ where: { id: elsewhereId } });
      expectSuccess(await system.api.patch('/realm', { description: 'Elsewhere' }, { auth: outsiderAdmin, subdomain: 'settings-elsewhere' }));
      expect((await system.db.realm.findUniqueOrThrow({ where: { id: elsewhereId } })).description).toBe('Elsewhere');
      expect((await row()).description).toBe('All about us');
      expect(theirs.description).not.toBe('Elsewhere');
    });
  });

  describe('channel settings', () => {
    it('takes a private moderation channel and announcement channels of the organization, -1 for none', async () => {
      events.clear();
      const body = expectSuccess(await patch(admin, { moderation_request_channel_id: privateChannel.id, new_stream_announcements_stream_id: publicChannel.id, signup_announcements_stream_id: privateChannel.id }));
      expect(body).toMatchObject({ moderation_request_channel_id: privateChannel.id, new_stream_announcements_stream_id: publicChannel.id, signup_announcements_stream_id: privateChannel.id });
      expect(await realmEvents(3)).toEqual(
        expect.arrayContaining([
          { type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: privateChannel.id },
          { type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: publicChannel.id },
        ]),
      );
      expect(await register(member, ['realm'])).toMatchObject({
        realm_moderation_request_channel_id: privateChannel.id,
        realm_new_stream_announcements_stream_id: publicChannel.id,
        realm_signup_announcements_stream_id: privateChannel.id,
        realm_zulip_update_announcements_stream_id: -1,
      });
      expect(expectSuccess(await patch(admin, { signup_announcements_stream_id: -1 }))).toMatchObject({ signup_announcements_stream_id: -1 });
      expect((await row()).signupAnnouncementsStreamId).toBeNull();
    });

    it.each([
      [() => ({ moderation_request_channel_id: publicChannel.id }), 'Moderation request channel must be private.'],
      [() => ({ new_stream_announcements_stream_id: foreignChannel.id }), 'Invalid channel ID'],
      [() => ({ zulip_update_announcements_stream_id: 999999999 }), 'Invalid channel ID'],
    ])('refuses a channel it may not hold, changing nothing', async (form, msg) => {
      const before = await row();
      expectError(await patch(admin, { description: 'nope', ...form() }), 400, 'BAD_REQUEST', msg);
      expect(await row()).toEqual(before);
    });
  });

  describe('group-valued permission settings', () => {
    it('takes a system group or users and groups, announces update_dict with the value, and register shows it', async () => {
      events.clear();
      const body = expectSuccess(
        await patch(admin, {
          can_add_custom_emoji_group: JSON.stringify({ new: groups['role:moderators'] }),
          can_create_bots_group: JSON.stringify({ new: { direct_members: [member.id], direct_subgroups: [groups['role:administrators']] }, old: groups['role:members'] }),
        }),
      );
      expect(body).toMatchObject({
        can_add_custom_emoji_group: groups['role:moderators'],
        can_create_bots_group: { direct_members: [member.id], direct_subgroups: [groups['role:administrators']] },
      });
      expect(await realmEvents(2)).toEqual(
        expect.arrayContaining([
          { type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: groups['role:moderators'] } },
          { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_bots_group: { direct_members: [member.id], direct_subgroups: [groups['role:administrators']] } } },
        ]),
      );
      const state = await register(member, ['realm']);
      expect(state).toMatchObject({
        realm_can_add_custom_emoji_group: groups['role:moderators'],
        realm_can_create_bots_group: { direct_members: [member.id], direct_subgroups: [groups['role:administrators']] },
        realm_can_invite_users_group: groups['role:members'],
        realm_can_access_all_users_group: groups['role:everyone'],
      });
      const supported = (state.server_supported_permission_settings as { realm: Record<string, Body> }).realm;
      expect(supported.can_access_all_users_group).toMatchObject({ require_system_group: true, allow_nobody_group: false, allowed_system_groups: ['role:everyone', 'role:members'] });

      // The same value again (in another form) changes nothing; a named group replaces the anonymous one.
      events.clear();
      expect(expectSuccess(await patch(admin, { can_add_custom_emoji_group: JSON.stringify({ new: { direct_members: [], direct_subgroups: [groups['role:moderators']] } }) }))).toEqual({ result: 'success', msg: '' });
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);
      const anonymous = (await row()).canCreateBotsGroupId!;
      expectSuccess(await patch(admin, { can_create_bots_group: JSON.stringify({ new: groups['role:members'] }) }));
      expect(await system.db.userGroup.findUnique({ where: { id: anonymous } })).toBeNull();
    });

    it('lets an owner restrict who sees every user to members, and never to administrators or an anonymous group', async () => {
      expectSuccess(await patch(owner, { can_access_all_users_group: JSON.stringify({ new: groups['role:members'] }) }));
      expect((await row()).canAccessAllUsersGroupId).toBe(groups['role:members']);
      expectSuccess(await patch(owner, { can_manage_billing_group: JSON.stringify({ new: groups['role:owners'] }), can_invite_users_group: JSON.stringify({ new: groups['role:administrators'] }) }));
      expect(await row()).toMatchObject({ canManageBillingGroupId: groups['role:owners'], canInviteUsersGroupId: groups['role:administrators'] });
    });

    it.each([
      [() => ({ can_create_bots_group: { new: groups['role:everyone'] } }), 'BAD_REQUEST', "'can_create_bots_group' setting cannot be set to 'role:everyone' group."],
      [() => ({ can_mention_many_users_group: { new: groups['role:internet'] } }), 'BAD_REQUEST', "'can_mention_many_users_group' setting cannot be set to 'role:internet' group."],
      [() => ({ can_access_all_users_group: { new: groups['role:administrators'] } }), 'BAD_REQUEST', "'can_access_all_users_group' setting cannot be set to 'role:administrators' group."],
      [() => ({ can_access_all_users_group: { new: { direct_members: [member.id], direct_subgroups: [] } } }), 'BAD_REQUEST', "'can_access_all_users_group' must be a system user group."],
      [() => ({ can_create_web_public_channel_group: { new: groups['role:members'] } }), 'BAD_REQUEST', "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group."],
      [() => ({ can_manage_all_groups: { new: groups['role:nobody'] } }), 'BAD_REQUEST', "'can_manage_all_groups' setting cannot be set to 'role:nobody' group."],
      [() => ({ can_add_subscribers_group: { new: 999999999 } }), 'BAD_REQUEST', 'Invalid user group'],
      [() => ({ can_summarize_topics_group: { new: groups['role:members'], old: groups['role:moderators'] } }), 'EXPECTATION_MISMATCH', "'old' value does not match the expected value."],
    ])('refuses a group the setting may not hold, changing nothing', async (form, code, msg) => {
      const before = await row();
      const encoded = Object.fromEntries(Object.entries(form()).map(([name, value]) => [name, JSON.stringify(value)]));
      expectError(await patch(owner, { name: 'Not this', ...encoded }), 400, code, msg);
      expect(await row()).toEqual(before);
    });
  });

  describe('messaging applies the editing settings', () => {
    it('refuses an edit past a new limit and allows it once the limit is lifted', async () => {
      const sent = expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'lobby', topic: 'limits', content: 'first draft' }, as(member)));
      await system.db.message.update({ where: { id: sent.id }, data: { dateSent: new Date(Date.now() - 120_000) } });
      expectSuccess(await system.api.patch(`/messages/${sent.id}`, { content: 'second draft' }, as(member)));
      expectSuccess(await patch(admin, { message_content_edit_limit_seconds: 60 }));
      expectError(await system.api.patch(`/messages/${sent.id}`, { content: 'third draft' }, as(member)), 400, 'BAD_REQUEST', 'The time limit for editing this message has passed');
      expectSuccess(await patch(admin, { message_content_edit_limit_seconds: JSON.stringify('unlimited') }));
      expectSuccess(await system.api.patch(`/messages/${sent.id}`, { content: 'third draft' }, as(member)));
      expectSuccess(await patch(admin, { allow_message_editing: false }));
      expectError(await system.api.patch(`/messages/${sent.id}`, { content: 'fourth' }, as(member)), 400, 'BAD_REQUEST', 'Your organization has turned off message editing');
      expectSuccess(await patch(admin, { allow_message_editing: true, message_content_edit_limit_seconds: 600 }));
    });
  });

  describe('allowed email domains', () => {
    const post = (user: TestUser, form: Body) => system.api.post<Body>('/realm/domains', form as never, as(user));

    it('lets owners add, change and list domains, announced to everyone active, shown in register', async () => {
      events.clear();
      const res = await post(owner, { domain: '  Example.TEST ', allow_subdomains: false });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/realm/domains', body);
      expect(body.new_domain).toEqual([expect.any(Number), 'example.test']);
      const [added] = await events.waitFor<ClientEvent>(DOMAINS_CHANGED);
      expect(added.event).toEqual({ type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.test', allow_subdomains: false } });
      expect(sortedIds(added.users)).toEqual(everyoneActive);

      expectSuccess(await system.api.patch('/realm/domains/example.test', { allow_subdomains: true }, as(owner)));
      const changed = await events.waitFor<ClientEvent>(DOMAINS_CHANGED, 2);
      expect(changed[1].event).toEqual({ type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.test', allow_subdomains: true } });

      expect(expectSuccess(await system.api.get<Body>('/realm/domains', {}, as(member))).domains).toEqual([{ domain: 'example.test', allow_subdomains: true }]);
      expect((await register(guest, ['realm_domains'])).realm_domains).toEqual([{ domain: 'example.test', allow_subdomains: true }]);
      expect((await system.api.get<Body>('/realm/domains', {}, { auth: outsiderAdmin, subdomain: 'settings-elsewhere' })).body.domains).toEqual([]);
    });

    it.each([
      [{ domain: '', allow_subdomains: false }, "Invalid domain: Domain can't be empty."],
      [{ domain: 'localhost', allow_subdomains: false }, 'Invalid domain: Domain must have at least one dot (.)'],
      [{ domain: 'a..b', allow_subdomains: false }, "Invalid domain: Consecutive '.' are not allowed."],
      [{ domain: '-a.b', allow_subdomains: false }, "Invalid domain: Subdomains cannot start or end with a '-'."],
      [{ domain: 'a_b.c', allow_subdomains: false }, "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      [{ domain: 'example.test', allow_subdomains: true }, 'The domain example.test is already a part of your organization.'],
    ])('refuses to add %j', async (form, msg) => {
      const before = await system.db.realmDomain.findMany({ where: { realmId } });
      expectError(await post(owner, form), 400, 'BAD_REQUEST', msg);
      expect(await system.db.realmDomain.findMany({ where: { realmId } })).toEqual(before);
    });

    it('refuses administrators, and unknown domains', async () => {
      expectError(await post(admin, { domain: 'admin.test', allow_subdomains: false }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await system.api.patch('/realm/domains/example.test', { allow_subdomains: false }, as(admin)), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await system.api.delete('/realm/domains/example.test', {}, as(admin)), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await system.api.patch('/realm/domains/nowhere.test', { allow_subdomains: false }, as(owner)), 400, 'BAD_REQUEST', 'No entry found for domain nowhere.test.');
      expectError(await system.api.delete('/realm/domains/nowhere.test', {}, as(owner)), 400, 'BAD_REQUEST', 'No entry found for domain nowhere.test.');
      await expectCallersRefused((options) => system.api.get('/realm/domains', {}, options), { subdomain, member, outsider: outsiderAdmin, deactivated });
      expect(await system.db.realmDomain.findMany({ where: { realmId } })).toHaveLength(1);
    });

    it('restricts new accounts to the domains, and lifts the restriction when the last domain goes', async () => {
      expectSuccess(await patch(owner, { emails_restricted_to_domains: true }));
      const create = (email: string) => system.api.post<Body>('/users', { email, password: 'a good long passphrase', full_name: 'New Person' }, as(admin));
      expectError(await create('someone@other.test'), 400, 'BAD_REQUEST', "Email 'someone@other.test' not allowed in this organization");
      expectSuccess(await create('someone@sub.example.test'));

      events.clear();
      expectSuccess(await system.api.delete('/realm/domains/example.test', {}, as(owner)));
      expect((await events.waitFor<ClientEvent>(DOMAINS_CHANGED))[0].event).toEqual({ type: 'realm_domains', op: 'remove', domain: 'example.test' });
      expect(await realmEvents(1)).toEqual([{ type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false }]);
      expect((await row()).emailsRestrictedToDomains).toBe(false);
    });
  });

  describe('Welcome Bot', () => {
    const welcomeBot = () => system.db.user.findFirstOrThrow({ where: { realmId, isBot: true, deliveryEmail: 'welcome-bot@settings.testserver.local' } });

    it('sends the custom message with the given text to the calling administrator, and answers its id', async () => {
      const res = await system.api.post<{ message_id: number }>('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Say hi in #**lobby**!' }, as(admin));
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/realm/test_welcome_bot_custom_message', body);
      const message = {
        ...(await system.db.message.findUniqueOrThrow({ where: { id: body.message_id } })),
        recipients: await system.db.userMessage.findMany({ where: { messageId: body.message_id } }),
      };
      expect(message.senderId).toBe((await welcomeBot()).id);
      expect(message.content).toContain('Say hi in #**lobby**!');
      expect(message.content).toContain('Renamed Org');
      expect(message.streamId).toBeNull();
      expect(message.recipients.map((r) => r.userId)).toContain(admin.id);
    });

    it('refuses an empty text, and anyone but administrators', async () => {
      expectError(await system.api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: '' }, as(admin)), 400, 'BAD_REQUEST', 'Message must not be empty');
      expectError(await system.api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'x'.repeat(8001) }, as(admin)), 400, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
      expectError(await system.api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'hi' }, as(moderator)), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      await expectCallersRefused((options) => system.api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'hi' }, options), { subdomain, member: admin, outsider: outsiderAdmin, deactivated });
    });

    it("greets a new account with Zulip's welcome and the organization's custom text", async () => {
      const res = await system.api.post<{ user_id: number }>('/users', { email: 'newcomer@settings.test', password: 'a good long passphrase', full_name: 'New Comer' }, as(admin));
      const { user_id: userId } = expectSuccess(res);
      // Sent after the answer: wait for both.
      const bot = await welcomeBot();
      const greetings = async () => {
        const received = (await system.db.userMessage.findMany({ where: { userId }, select: { messageId: true } })).map((row) => row.messageId);
        return system.db.message.findMany({ where: { senderId: bot.id, id: { in: received } }, orderBy: { id: 'asc' } });
      };
      for (let attempt = 0; attempt < 100 && (await greetings()).length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
      const received = await greetings();
      expect(received.map((message) => message.content)).toEqual([
        expect.stringMatching(/^Hello, and welcome to Zulip!👋\n\nTo learn more, check out our \[getting started guide\]\(\/help\/getting-started-with-zulip\)!$/),
        expect.stringContaining('Read #**lobby** first.'),
      ]);
    });
  });
});

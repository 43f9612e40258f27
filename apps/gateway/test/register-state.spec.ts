import { Realtime, UsersGroups } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectMatchesOpenApi,
  expectSuccess,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

type State = Record<string, unknown>;
interface Channel {
  stream_id: number;
  name: string;
  subscribers?: number[];
  [key: string]: unknown;
}
interface Member {
  user_id: number;
  email: string;
  delivery_email: string | null;
  avatar_url: string | null;
  [key: string]: unknown;
}

/** Keys every /register answer has, whatever was asked for. */
const ALWAYS = ['result', 'msg', 'queue_id', 'last_event_id', 'zulip_feature_level', 'zulip_version', 'zulip_merge_base'];
/** `realm` keys the gateway serves itself (tested with the event queues and in register-all-keys.spec.ts). */
const GATEWAY_REALM_KEYS = new Set([
  ...Object.keys(Realtime.REALM_DEFAULTS_UNTIL_FEATURE),
  'realm_url', 'realm_uri', 'realm_empty_topic_display_name', 'realm_bot_domain', 'realm_upload_quota_mib',
  'server_emoji_data_url', 'can_create_streams', 'can_create_public_streams', 'can_create_private_streams',
  'can_create_web_public_streams', 'can_subscribe_other_users', 'can_invite_others_to_realm',
]);
const GATEWAY_REALM = { test: (key: string) => GATEWAY_REALM_KEYS.has(key) || /^(max_(?!message_id$)\w+|server_(?!timestamp$)\w+|event_queue_longpoll_timeout_seconds)$/.test(key) };

/** Every fetch key Zulip lists (zerver/lib/events.py fetch_initial_state_data). */
const ZULIP_FETCH_KEYS = [
  'alert_words', 'custom_profile_fields', 'default_stream_groups', 'default_streams', 'drafts', 'message', 'muted_topics',
  'muted_users', 'navigation_views', 'onboarding_steps', 'presence', 'push_device', 'realm', 'realm_bot', 'realm_domains',
  'realm_embedded_bots', 'realm_emoji', 'realm_filters', 'realm_incoming_webhook_bots', 'realm_linkifiers', 'realm_playgrounds',
  'realm_user', 'realm_user_groups', 'realm_user_settings_defaults', 'recent_private_conversations', 'reminders', 'saved_snippets',
  'scheduled_messages', 'starred_messages', 'stream', 'subscription', 'update_display_settings', 'update_global_notifications',
  'update_message_flags', 'user_settings', 'user_status', 'user_topic', 'video_calls', 'channel_folders',
];

/** What the services (and the gateway's defaults until a feature exists) serve for each fetch key. */
const KEYS_OF: Record<string, string[]> = {
  realm: [...new Set([
    'jitsi_server_url',
    'realm_allow_message_editing',
    'realm_available_video_chat_providers',
    'realm_authentication_methods',
    'realm_can_create_groups',
    'realm_can_manage_all_groups',
    'realm_can_mention_many_users_group',
    'realm_date_created',
    'realm_default_language',
    'realm_description',
    'realm_email_auth_enabled',
    'realm_email_changes_disabled',
    'realm_enable_read_receipts',
    'realm_enable_spectator_access',
    'realm_icon_source',
    'realm_icon_url',
    'realm_is_zephyr_mirror_realm',
    'realm_jitsi_server_url',
    'realm_message_content_delete_limit_seconds',
    'realm_message_content_edit_limit_seconds',
    'realm_moderation_request_channel_id',
    'realm_move_messages_between_streams_limit_seconds',
    'realm_move_messages_within_stream_limit_seconds',
    'realm_password_auth_enabled',
    'realm_presence_disabled',
    'realm_video_chat_provider',
    'realm_waiting_period_threshold',
    // The organization's settings PATCH /realm changes (its catalogue), and the keys derived from them.
    ...UsersGroups.REALM_SETTING_NAMES.map((name) => `realm_${name}`),
    'realm_allow_edit_history',
    'realm_mandatory_topics',
    'realm_logo_source',
    'realm_logo_url',
    'realm_night_logo_source',
    'realm_night_logo_url',
    'realm_name',
  ])],
  user_settings: ['user_settings'],
  realm_user_settings_defaults: ['realm_user_settings_defaults'],
  realm_user: [
    'avatar_source',
    'avatar_url',
    'avatar_url_medium',
    'cross_realm_bots',
    'delivery_email',
    'email',
    'full_name',
    'is_admin',
    'is_guest',
    'is_moderator',
    'is_owner',
    'realm_non_active_users',
    'realm_users',
    'user_id',
  ],
  realm_user_groups: ['realm_user_groups'],
  navigation_views: ['navigation_views'],
  custom_profile_fields: ['custom_profile_fields', 'custom_profile_field_types'],
  subscription: ['never_subscribed', 'subscriptions', 'unsubscribed'],
  stream: ['streams'],
  channel_folders: ['channel_folders'],
  drafts: ['drafts'],
  scheduled_messages: ['scheduled_messages'],
  reminders: ['reminders'],
  message: ['max_message_id'],
  user_topic: ['user_topics'],
  recent_private_conversations: ['recent_private_conversations'],
  muted_topics: ['muted_topics'],
  starred_messages: ['starred_messages'],
  realm_emoji: ['realm_emoji'],
  realm_bot: ['realm_bots'],
  default_streams: ['realm_default_streams'],
  // push (its content is tested in apps/push/test/push.spec.ts).
  push_device: ['push_devices'],
  // Served as defaults until the feature exists (the gateway's DEFAULTS_UNTIL_FEATURE).
  presence: ['presences', 'presence_last_update_id', 'server_timestamp'],
  muted_users: ['muted_users'],
  alert_words: ['alert_words'],
  realm_linkifiers: ['realm_linkifiers'],
  realm_filters: ['realm_filters'],
  realm_playgrounds: ['realm_playgrounds'],
  saved_snippets: ['saved_snippets'],
  realm_embedded_bots: ['realm_embedded_bots'],
  realm_incoming_webhook_bots: ['realm_incoming_webhook_bots'],
  default_stream_groups: ['realm_default_stream_groups'],
  realm_domains: ['realm_domains'],
  onboarding_steps: ['onboarding_steps', 'navigation_tour_video_url'],
  video_calls: ['has_zoom_token'],
};

/** The deprecated top-level settings, for clients without `user_settings_object`. */
const LEGACY_DISPLAY = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'emojiset',
  'emojiset_choices',
  'enable_drafts_synchronization',
  'enter_sends',
  'fluid_layout_width',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'timezone',
  'translate_emoticons',
  'twenty_four_hour_time',
  'web_home_view',
];
const LEGACY_NOTIFICATIONS = [
  'available_notification_sounds',
  'desktop_icon_count_display',
  'email_notifications_batching_period_seconds',
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'realm_name_in_email_notifications_policy',
  'wildcard_mentions_notify',
];
const NEWEST_CAPABILITIES = { user_settings_object: true, notification_settings_null: true };

describe('POST /register: the initial state of users-groups and messaging', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, other: TestUser;
  let deactivated: TestUser, idle: TestUser;
  let general: { id: number }, secret: { id: number }, hidden: { id: number }, left: { id: number };
  let quiet: { id: number }, webPublic: { id: number }, archived: { id: number };
  let outsider: TestUser, outsiderSubdomain: string, foreign: { id: number };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const register = async (user: TestUser, params: Record<string, FormValue> = {}, sub = subdomain) =>
    expectSuccess(await system.api.post<State>('/register', params, as(user, sub)));
  /** The state for one set of fetch keys, with the newest client's capabilities unless told. */
  const fetch = (user: TestUser, keys: string[], params: Record<string, FormValue> = {}) =>
    register(user, { fetch_event_types: keys, client_capabilities: NEWEST_CAPABILITIES, ...params });
  /** The keys these two services answered (the always-present and gateway-owned ones left out). */
  const served = (body: State) => Object.keys(body).filter((key) => !ALWAYS.includes(key) && !GATEWAY_REALM.test(key) && key !== 'user_status').sort();
  const names = (channels: unknown) => (channels as Channel[]).map((channel) => channel.name);
  const byId = (members: unknown, id: number) => (members as Member[]).find((m) => m.user_id === id);
  const send = async (user: TestUser, form: Record<string, FormValue>) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form, as(user))).id;
  const expectValid = (body: State) => expectMatchesOpenApi('post', '/register', body);

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'regstate' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Moe Moderator' });
    // Shows the real address to administrators only.
    other = await factory.user(org.realm, { fullName: 'Otto Other', settings: { email_address_visibility: 3 } });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    idle = await factory.user(org.realm, { fullName: 'Ida Idle' });

    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, guest, admin] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin, member] });
    hidden = await factory.channel(org.realm, { name: 'hidden', inviteOnly: true, subscribers: [owner] });
    left = await factory.channel(org.realm, { name: 'left', subscribers: [member, other] });
    await system.db.subscription.updateMany({ where: { streamId: left.id, userId: member.id }, data: { active: false } });
    quiet = await factory.channel(org.realm, { name: 'quiet' });
    webPublic = await factory.channel(org.realm, { name: 'showcase', subscribers: [owner] });
    await system.db.stream.update({ where: { id: webPublic.id }, data: { isWebPublic: true } });
    archived = await factory.channel(org.realm, { name: 'old', subscribers: [member] });
    await system.db.stream.update({ where: { id: archived.id }, data: { isArchived: true } });

    const elsewhere = await factory.organization({ subdomain: 'regstate-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER, fullName: 'Oscar Outsider' });
    foreign = await factory.channel(elsewhere, { name: 'foreign-only', subscribers: [outsider] });
    await system.db.draft.create({ data: { userId: outsider.id, type: '', to: [], content: 'foreign draft', lastEditTime: new Date() } });
    await system.db.customProfileField.create({ data: { realmId: elsewhere.id, name: 'Shoe size', fieldType: 1 } });
  });
  afterAll(() => system?.stop());

  describe('which keys', () => {
    it('serves every key of both services when fetch_event_types and event_types are absent', async () => {
      const body = await register(member);
      const expected = [...Object.values(KEYS_OF).flat(), 'unread_msgs', ...LEGACY_DISPLAY, ...LEGACY_NOTIFICATIONS];
      expect(served(body)).toEqual([...new Set(expected)].sort());
      expectValid(body);
    });

    it.each(Object.entries(KEYS_OF))('serves exactly its keys for fetch_event_types [%s]', async (fetchKey, keys) => {
      const body = await fetch(member, [fetchKey]);
      expect(served(body)).toEqual([...keys].sort());
      expectValid(body);
    });

    it('serves unread_msgs only when both message and update_message_flags are asked for', async () => {
      expect(served(await fetch(member, ['update_message_flags']))).toEqual([]);
      const body = await fetch(member, ['message', 'update_message_flags']);
      expect(served(body)).toEqual(['max_message_id', 'unread_msgs']);
      expectValid(body);
    });

    it('serves nothing for an empty fetch_event_types, nor for kinds Zulip does not have', async () => {
      expect(served(await fetch(member, []))).toEqual([]);
      expect(served(await fetch(member, ['no_such_kind']))).toEqual([]);
    });

    it('answers every fetch key Zulip lists with a body valid against the schema', async () => {
      for (const user of [member, admin]) {
        const body = await fetch(user, ZULIP_FETCH_KEYS, { include_subscribers: true });
        // user_topic asked for explicitly: the deprecated muted_topics is left out, as in Zulip.
        const expected = Object.entries(KEYS_OF).flatMap(([key, keys]) => (key === 'muted_topics' ? [] : keys));
        expect(served(body)).toEqual([...new Set([...expected, 'unread_msgs'])].sort());
        expectValid(body);
        const old = await register(user, { fetch_event_types: ZULIP_FETCH_KEYS });
        expect(old).toHaveProperty('email_notifications_batching_period_seconds');
        expectValid(old);
      }
    });

    it('serves the server\'s presence intervals and the message-editing settings with realm', async () => {
      const body = await fetch(member, ['realm']);
      expect(body).toMatchObject({
        server_presence_ping_interval_seconds: 60,
        server_presence_offline_threshold_seconds: 140,
        realm_allow_message_editing: true,
        realm_message_content_edit_limit_seconds: 600,
        realm_message_retention_days: -1,
      });
    });

    it('serves the defaults of features still to come', async () => {
      const body = await fetch(member, Object.keys(KEYS_OF).filter((key) => ['presence', 'muted_users', 'alert_words', 'realm_linkifiers'].includes(key)));
      expect(body).toMatchObject({ presences: {}, presence_last_update_id: -1, muted_users: [], alert_words: [], realm_linkifiers: [] });
      expect(body.server_timestamp).toBeCloseTo(Date.now() / 1000, -1);
    });

    it('reads fetch_event_types from event_types when absent, and prefers it when both are given', async () => {
      expect(served(await register(member, { event_types: ['drafts', 'stream'] }))).toEqual(['drafts', 'streams']);
      expect(served(await register(member, { event_types: ['drafts'], fetch_event_types: ['message'] }))).toEqual(['max_message_id']);
      expect(served(await register(member, { event_types: ['drafts'], fetch_event_types: [] }))).toEqual([]);
    });
  });

  describe('settings', () => {
    it('serves the caller\'s settings, changed ones included, over the organization\'s defaults', async () => {
      await system.db.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: { web_home_view: 'recent_topics' } } });
      expectSuccess(await system.api.patch('/settings', { twenty_four_hour_time: true, web_font_size_px: 20, timezone: 'Europe/Paris' }, as(member)));

      const { user_settings: settings } = await fetch(member, ['user_settings']);
      expect(settings).toMatchObject({
        twenty_four_hour_time: true,
        web_font_size_px: 20,
        timezone: 'Europe/Paris',
        web_home_view: 'recent_topics',
        color_scheme: 1,
        emojiset: 'google',
        default_language: 'en',
        enable_drafts_synchronization: true,
        email_address_visibility: 1,
        available_notification_sounds: ['chime', 'ding', 'zulip'],
        emojiset_choices: [
          { key: 'google', text: 'Google' },
          { key: 'twitter', text: 'Twitter' },
          { key: 'text', text: 'Plain text' },
          { key: 'google-blob', text: 'Google blobs' },
        ],
      });
      // Someone else's are their own.
      const { user_settings: theirs } = await fetch(idle, ['user_settings']);
      expect(theirs).toMatchObject({ twenty_four_hour_time: false, web_font_size_px: 16, timezone: '', web_home_view: 'recent_topics' });
    });

    it('serves the organization\'s defaults for new users', async () => {
      await system.db.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: { web_home_view: 'all_messages', enter_sends: true } } });
      const { realm_user_settings_defaults: defaults } = await fetch(member, ['realm_user_settings_defaults']);
      expect(defaults).toMatchObject({ web_home_view: 'all_messages', enter_sends: true, twenty_four_hour_time: false, default_language: 'en' });
      expect(defaults).not.toHaveProperty('timezone');
      await system.db.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: {} } });
    });

    it('copies the settings to the top level only for clients without user_settings_object', async () => {
      expectSuccess(await system.api.patch('/settings', { emojiset: 'text', enable_sounds: false }, as(moderator)));
      const legacy = await register(moderator, { client_capabilities: {} });
      const settings = legacy.user_settings as State;
      for (const key of [...LEGACY_DISPLAY, ...LEGACY_NOTIFICATIONS]) expect([key, legacy[key]]).toEqual([key, settings[key]]);
      expect(legacy).toMatchObject({ emojiset: 'text', enable_sounds: false });
      // Modern settings stay inside the object.
      expect(legacy).not.toHaveProperty('web_font_size_px');
      expectValid(legacy);

      const modern = await register(moderator, { client_capabilities: { user_settings_object: true } });
      for (const key of [...LEGACY_DISPLAY, ...LEGACY_NOTIFICATIONS]) expect(modern).not.toHaveProperty(key);
      expect(modern.user_settings).toEqual(settings);
    });

    it('ties the legacy copies to their own fetch keys, as Zulip does', async () => {
      const display = await register(moderator, { fetch_event_types: ['update_display_settings'] });
      expect(served(display)).toEqual([...LEGACY_DISPLAY].sort());
      const notifications = await register(moderator, { fetch_event_types: ['update_global_notifications'] });
      expect(served(notifications)).toEqual([...LEGACY_NOTIFICATIONS].sort());
      expect(served(await register(moderator, { fetch_event_types: ['user_settings'] }))).toEqual(['user_settings']);
    });
  });

  describe('people', () => {
    it('serves active users as GET /users does, without is_active, and deactivated ones apart', async () => {
      const body = await fetch(member, ['realm_user']);
      const { members } = expectSuccess(await system.api.get<{ members: (Member & { is_active: boolean })[] }>('/users', {}, as(member)));
      const withoutActive = ({ is_active: _active, ...record }: Member & { is_active: boolean }) => ({ ...record, profile_data: {} });
      expect(body.realm_users).toEqual(members.filter((m) => m.is_active).map(withoutActive));
      expect(body.realm_non_active_users).toEqual(members.filter((m) => !m.is_active).map(withoutActive));
      expect((body.realm_non_active_users as Member[]).map((m) => m.user_id)).toEqual([deactivated.id]);
      expect(byId(body.realm_users, deactivated.id)).toBeUndefined();
      expect(body.cross_realm_bots).toEqual([]);
    });

    it('hides addresses as the owner\'s email visibility says, and honours client_gravatar', async () => {
      const seenByMember = byId((await fetch(member, ['realm_user'])).realm_users, other.id)!;
      expect(seenByMember).toMatchObject({ email: `user${other.id}@${subdomain}.testserver.local`, delivery_email: null, avatar_url: null });
      const seenByAdmin = byId((await fetch(admin, ['realm_user'], { client_gravatar: false })).realm_users, other.id)!;
      expect(seenByAdmin).toMatchObject({ email: `user${other.id}@${subdomain}.testserver.local`, delivery_email: other.email });
      expect(seenByAdmin.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    });

    it('serves the caller\'s own identity, its avatar URL whatever client_gravatar says', async () => {
      const own = await fetch(other, ['realm_user']);
      expect(own).toMatchObject({
        user_id: other.id,
        email: `user${other.id}@${subdomain}.testserver.local`,
        delivery_email: other.email,
        full_name: 'Otto Other',
        avatar_source: 'G',
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
        is_admin: false,
        is_owner: false,
        is_moderator: false,
        is_guest: false,
      });
      const roles = async (user: TestUser) => {
        const body = await fetch(user, ['realm_user']);
        return [body.is_owner, body.is_admin, body.is_moderator, body.is_guest];
      };
      expect(await roles(owner)).toEqual([true, true, true, false]);
      expect(await roles(admin)).toEqual([false, true, true, false]);
      expect(await roles(moderator)).toEqual([false, false, true, false]);
      expect(await roles(guest)).toEqual([false, false, false, true]);
    });

    it('serves the custom profile fields in order, and each user\'s values', async () => {
      const pronouns = await system.db.customProfileField.create({
        data: { realmId, name: 'Pronouns', fieldType: 8, order: 2, displayInProfileSummary: true, hint: 'How to refer to you' },
      });
      const team = await system.db.customProfileField.create({ data: { realmId, name: 'Team', fieldType: 1, order: 1 } });
      await system.db.customProfileFieldValue.create({ data: { userId: other.id, fieldId: team.id, value: 'Core', renderedValue: '<p>Core</p>' } });

      const body = await fetch(member, ['custom_profile_fields', 'realm_user']);
      expect(body.custom_profile_fields).toEqual([
        { id: team.id, name: 'Team', type: 1, hint: '', field_data: '', order: 1, required: false, editable_by_user: true },
        {
          id: pronouns.id,
          name: 'Pronouns',
          type: 8,
          hint: 'How to refer to you',
          field_data: '',
          order: 2,
          required: false,
          editable_by_user: true,
          display_in_profile_summary: true,
        },
      ]);
      expect(body.custom_profile_field_types).toMatchObject({ SHORT_TEXT: { id: 1, name: 'Text (short)' }, PRONOUNS: { id: 8, name: 'Pronouns' } });
      expect(byId(body.realm_users, other.id)!.profile_data).toEqual({ [team.id]: { value: 'Core', rendered_value: '<p>Core</p>' } });
      expect(byId(body.realm_users, member.id)!.profile_data).toEqual({});
      expectValid(body);
    });

    it('serves the organization’s user groups, the system groups among them', async () => {
      const groups = (await fetch(member, ['realm_user_groups'])).realm_user_groups as { name: string; is_system_group: boolean }[];
      expect(groups.filter((g) => g.is_system_group).map((g) => g.name)).toContain('role:members');
      expect(groups.every((g) => g.is_system_group)).toBe(true);
    });
  });

  describe('organization', () => {
    it('serves the stored organization settings', async () => {
      await system.db.realm.update({ where: { id: realmId }, data: { description: 'We make things', emailChangesDisabled: true } });
      const body = await fetch(member, ['realm']);
      const { dateCreated } = await system.db.realm.findUniqueOrThrow({ where: { id: realmId } });
      expect(body).toMatchObject({
        realm_description: 'We make things',
        realm_date_created: Math.floor(dateCreated.getTime() / 1000),
        realm_email_changes_disabled: true,
        realm_enable_spectator_access: false,
        realm_password_auth_enabled: true,
        realm_email_auth_enabled: true,
        realm_authentication_methods: { Email: { enabled: true, available: true } },
        realm_default_language: 'en',
        realm_icon_url: `http://${subdomain}.testserver.local/static/images/logo/zulip-icon-128x128.png`,
        realm_icon_source: 'G',
        realm_presence_disabled: false,
        realm_is_zephyr_mirror_realm: false,
        realm_enable_read_receipts: true,
        realm_moderation_request_channel_id: -1,
        realm_video_chat_provider: 1,
        realm_jitsi_server_url: null,
        realm_name: 'Test organization',
      });
    });

    it('serves who may mention many users as its group-setting value', async () => {
      const { realm_can_mention_many_users_group: group } = await fetch(member, ['realm']);
      expect(group).toBe(await factory.systemGroupId({ id: realmId }, 'role:administrators'));
      const moderators = await factory.systemGroupId({ id: realmId }, 'role:moderators');
      await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: moderators } });
      const { realm_can_mention_many_users_group: wider } = await fetch(member, ['realm']);
      expect(wider).toBe(moderators);
      await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: group as number } });
    });
  });

  describe('channels', () => {
    it('serves subscriptions as GET /users/me/subscriptions does', async () => {
      const body = await fetch(member, ['subscription'], { include_subscribers: true });
      const listed = expectSuccess(
        await system.api.get<{ subscriptions: Channel[] }>('/users/me/subscriptions', { include_subscribers: true }, as(member)),
      );
      expect(body.subscriptions).toEqual(listed.subscriptions);
      expect(names(body.subscriptions)).toEqual(['general', 'secret']);
      expect((body.subscriptions as Channel[])[0].subscribers).toEqual([member.id, other.id, guest.id, admin.id].sort((a, b) => a - b));
      expectValid(body);
    });

    it('lists channels left in unsubscribed and public ones never joined in never_subscribed', async () => {
      const body = await fetch(member, ['subscription']);
      expect(names(body.unsubscribed)).toEqual(['left']);
      expect((body.unsubscribed as Channel[])[0]).toMatchObject({ stream_id: left.id, color: expect.any(String), is_muted: false });
      expect(names(body.never_subscribed)).toEqual(['quiet', 'showcase']);
      for (const list of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
        for (const channel of body[list] as Channel[]) expect(channel).not.toHaveProperty('subscribers');
      }
    });

    it('lists private channels never joined to administrators, and only web-public ones to guests', async () => {
      const asAdmin = await fetch(admin, ['subscription'], { include_subscribers: true });
      expect(names(asAdmin.never_subscribed)).toEqual(['hidden', 'left', 'quiet', 'showcase']);
      // Administrators may see who is subscribed anywhere.
      expect((asAdmin.never_subscribed as Channel[]).find((c) => c.name === 'hidden')!.subscribers).toEqual([owner.id]);

      const asGuest = await fetch(guest, ['subscription'], { include_subscribers: true });
      expect(names(asGuest.subscriptions)).toEqual(['general']);
      expect(names(asGuest.never_subscribed)).toEqual(['showcase']);
      expect((asGuest.never_subscribed as Channel[])[0].subscribers).toEqual([owner.id]);
      expectValid(asGuest);
    });

    it('drops private channels a member left, and gives subscriber lists of the public ones', async () => {
      await system.db.subscription.updateMany({ where: { streamId: secret.id, userId: member.id }, data: { active: false } });
      try {
        const body = await fetch(member, ['subscription'], { include_subscribers: true });
        const unsubscribed = body.unsubscribed as Channel[];
        expect(unsubscribed.find((c) => c.name === 'left')!.subscribers).toEqual([other.id]);
        // A private channel left behind is not listed to a member at all.
        expect(names(unsubscribed)).toEqual(['left']);
        expect((body.never_subscribed as Channel[]).find((c) => c.name === 'quiet')!.subscribers).toEqual([]);
      } finally {
        await system.db.subscription.updateMany({ where: { streamId: secret.id, userId: member.id }, data: { active: true } });
      }
    });

    it('fills notification properties from the settings for clients without notification_settings_null', async () => {
      expectSuccess(await system.api.patch('/settings', { enable_stream_push_notifications: true }, as(member)));
      await system.db.subscription.updateMany({ where: { streamId: secret.id, userId: member.id }, data: { desktopNotifications: true } });
      const modern = await fetch(member, ['subscription']);
      const old = await register(member, { fetch_event_types: ['subscription'], client_capabilities: { user_settings_object: true } });
      const secretOf = (body: State) => (body.subscriptions as Channel[]).find((c) => c.name === 'secret');
      expect(secretOf(modern)).toMatchObject({ desktop_notifications: true, push_notifications: null, audible_notifications: null, email_notifications: null });
      expect(secretOf(old)).toMatchObject({ desktop_notifications: true, push_notifications: true, audible_notifications: false, email_notifications: false });
      // wildcard_mentions_notify stays null either way, as in Zulip.
      expect(secretOf(old)!.wildcard_mentions_notify).toBeNull();
    });

    it('lists archived channels only for clients with archived_channels', async () => {
      const without = await fetch(member, ['subscription', 'stream']);
      expect(names(without.subscriptions)).not.toContain('old');
      expect(names(without.streams)).not.toContain('old');
      const withArchived = await fetch(member, ['subscription', 'stream'], {
        client_capabilities: { ...NEWEST_CAPABILITIES, archived_channels: true },
      });
      expect((withArchived.subscriptions as Channel[]).find((c) => c.name === 'old')).toMatchObject({ stream_id: archived.id, is_archived: true });
      expect(names(withArchived.streams)).toContain('old');
    });

    it('serves streams as GET /streams lists them, every channel for administrators', async () => {
      const body = await fetch(member, ['stream']);
      const listed = expectSuccess(await system.api.get<{ streams: Channel[] }>('/streams', { include_web_public: true }, as(member)));
      expect(body.streams).toEqual(listed.streams);
      expect(names(body.streams)).toEqual(['general', 'secret', 'left', 'quiet', 'showcase']);

      const asAdmin = await fetch(admin, ['stream']);
      expect(names(asAdmin.streams)).toEqual(['general', 'secret', 'hidden', 'left', 'quiet', 'showcase']);
      expect(names((await fetch(guest, ['stream'])).streams)).toEqual(['general', 'showcase']);
      expectValid(asAdmin);
    });
  });

  describe('messages, topics and drafts', () => {
    it('serves the newest message id the caller received, or -1', async () => {
      expect((await fetch(idle, ['message'])).max_message_id).toBe(-1);
      const id = await send(other, { type: 'stream', to: 'general', topic: 'news', content: 'Hello all' });
      expect((await fetch(member, ['message'])).max_message_id).toBe(id);
      // A later message elsewhere, to a channel the member is not in, does not count.
      await factory.channelMessages({ id: outsider.id, realmId: outsider.realmId }, foreign, 'x');
      await send(owner, { type: 'stream', to: 'hidden', topic: 'x', content: 'private' });
      expect((await fetch(member, ['message'])).max_message_id).toBe(id);
    });

    it('serves the caller\'s topic visibility policies, the empty topic as the client names it', async () => {
      await system.db.userTopic.createMany({
        data: [
          { userId: member.id, streamId: general.id, topicName: 'muted things', visibilityPolicy: 1, lastUpdated: new Date(1700000000000) },
          { userId: member.id, streamId: general.id, topicName: '', visibilityPolicy: 3, lastUpdated: new Date(1700000001000) },
          { userId: member.id, streamId: archived.id, topicName: 'gone', visibilityPolicy: 3 },
          { userId: other.id, streamId: general.id, topicName: 'theirs', visibilityPolicy: 2 },
        ],
      });
      const body = await fetch(member, ['user_topic']);
      expect(body.user_topics).toEqual([
        { stream_id: general.id, topic_name: 'muted things', last_updated: 1700000000, visibility_policy: 1 },
        { stream_id: general.id, topic_name: 'general chat', last_updated: 1700000001, visibility_policy: 3 },
      ]);
      const withEmpty = await fetch(member, ['user_topic'], { client_capabilities: { ...NEWEST_CAPABILITIES, empty_topic_name: true } });
      expect((withEmpty.user_topics as { topic_name: string }[]).map((t) => t.topic_name)).toEqual(['muted things', '']);
      expectValid(body);
    });

    it('serves unread messages by conversation, leaving muted topics out of the count', async () => {
      const before = (await fetch(idle, ['message', 'update_message_flags'])).unread_msgs;
      expect(before).toEqual({ count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false });

      await factory.subscribe(idle, general);
      const news = await send(other, { type: 'stream', to: 'general', topic: 'plans', content: 'Hi @**Ida Idle**' });
      const muted = await send(other, { type: 'stream', to: 'general', topic: 'muted things', content: 'shh' });
      await system.db.userTopic.create({ data: { userId: idle.id, streamId: general.id, topicName: 'Muted Things', visibilityPolicy: 1 } });
      const direct = await send(other, { type: 'direct', to: [idle.id], content: 'psst' });
      const group = await send(other, { type: 'direct', to: [idle.id, member.id], content: 'all three' });
      await send(idle, { type: 'direct', to: [idle.id], content: 'note to self', read_by_sender: true });
      const own = await send(idle, { type: 'stream', to: 'general', topic: 'plans', content: 'mine, so read', read_by_sender: true });

      const body = await fetch(idle, ['message', 'update_message_flags']);
      expect(body.max_message_id).toBe(own);
      expect(body.unread_msgs).toEqual({
        count: 3,
        pms: [{ other_user_id: other.id, sender_id: other.id, unread_message_ids: [direct] }],
        streams: [
          { stream_id: general.id, topic: 'muted things', unread_message_ids: [muted] },
          { stream_id: general.id, topic: 'plans', unread_message_ids: [news] },
        ],
        huddles: [{ user_ids_string: [idle.id, member.id, other.id].sort((a, b) => a - b).join(','), unread_message_ids: [group] }],
        mentions: [news],
        old_unreads_missing: false,
      });
      expectValid(body);

      // In a muted channel only followed or unmuted topics count, and wildcard mentions elsewhere are no mentions.
      await system.db.subscription.updateMany({ where: { streamId: general.id, userId: idle.id }, data: { isMuted: true } });
      const wildcard = await send(other, { type: 'stream', to: 'general', topic: 'elsewhere', content: '@**all** heads up' });
      const { unread_msgs: inMutedChannel } = await fetch(idle, ['message', 'update_message_flags']);
      expect(inMutedChannel).toMatchObject({ count: 3, mentions: [news] });
      expect((inMutedChannel as { streams: unknown[] }).streams).toContainEqual({ stream_id: general.id, topic: 'elsewhere', unread_message_ids: [wildcard] });
      await system.db.subscription.updateMany({ where: { streamId: general.id, userId: idle.id }, data: { isMuted: false } });
      const { unread_msgs: unmuted } = await fetch(idle, ['message', 'update_message_flags']);
      expect(unmuted).toMatchObject({ count: 4, mentions: [news, wildcard] });
    });

    it('serves recent direct conversations, newest first, with the other participants', async () => {
      const toOther = await send(member, { type: 'direct', to: [other.id], content: 'one' });
      const toSelf = await send(member, { type: 'direct', to: [member.id], content: 'me' });
      const toGroup = await send(guest, { type: 'direct', to: [member.id, admin.id], content: 'three' });
      const again = await send(other, { type: 'direct', to: [member.id], content: 'reply' });
      const body = await fetch(member, ['recent_private_conversations']);
      const conversations = body.recent_private_conversations as { max_message_id: number; user_ids: number[] }[];
      expect(conversations.slice(0, 3)).toEqual([
        { max_message_id: again, user_ids: [other.id] },
        { max_message_id: toGroup, user_ids: [admin.id, guest.id].sort((a, b) => a - b) },
        { max_message_id: toSelf, user_ids: [] },
      ]);
      expect(toOther).toBeLessThan(again);
      expect((await fetch(owner, ['recent_private_conversations'])).recent_private_conversations).toEqual([]);
      expectValid(body);
    });

    it('serves the drafts newest first, and none while synchronisation is off', async () => {
      const create = async (user: TestUser, content: string, timestamp: number) =>
        expectSuccess(
          await system.api.post<{ ids: number[] }>('/drafts', { drafts: [{ type: 'stream', to: [general.id], topic: 't', content, timestamp }] }, as(user)),
        ).ids[0];
      const older = await create(moderator, 'older', 1600000000);
      const newer = await create(moderator, 'newer', 1700000000);
      const body = await fetch(moderator, ['drafts']);
      expect(body.drafts).toEqual([
        { id: newer, type: 'stream', to: [general.id], topic: 't', content: 'newer', timestamp: 1700000000 },
        { id: older, type: 'stream', to: [general.id], topic: 't', content: 'older', timestamp: 1600000000 },
      ]);
      expectValid(body);

      // A row left behind (synchronisation is turned off behind the API's back) is not served.
      await factory.userSettings(moderator, { enable_drafts_synchronization: false });
      expect((await fetch(moderator, ['drafts'])).drafts).toEqual([]);
      await factory.userSettings(moderator, { enable_drafts_synchronization: true });
    });
  });

  describe('muted topics, starred messages, custom emoji and bots', () => {
    it('serves the deprecated muted_topics as [channel, topic, seconds], unless user_topic is asked for', async () => {
      await system.db.userTopic.createMany({
        data: [
          { userId: moderator.id, streamId: general.id, topicName: 'noise', visibilityPolicy: 1, lastUpdated: new Date(1700000000000) },
          { userId: moderator.id, streamId: general.id, topicName: 'loved', visibilityPolicy: 3 },
          { userId: moderator.id, streamId: quiet.id, topicName: '', visibilityPolicy: 1, lastUpdated: new Date(1700000002000) },
          { userId: moderator.id, streamId: archived.id, topicName: 'gone', visibilityPolicy: 1 },
        ],
      });
      const body = await fetch(moderator, ['muted_topics']);
      expect(body.muted_topics).toEqual([
        ['general', 'noise', 1700000000],
        ['quiet', 'general chat', 1700000002],
      ]);
      expectValid(body);
      expect(served(await fetch(moderator, ['muted_topics', 'user_topic']))).toEqual(['user_topics']);
      expect((await register(moderator)).muted_topics).toEqual(body.muted_topics);
      expect((await fetch(owner, ['muted_topics'])).muted_topics).toEqual([]);
    });

    it('serves the ids of the caller\'s starred messages', async () => {
      const first = await send(other, { type: 'stream', to: 'general', topic: 'stars', content: 'one' });
      const second = await send(other, { type: 'stream', to: 'general', topic: 'stars', content: 'two' });
      await send(other, { type: 'stream', to: 'general', topic: 'stars', content: 'three' });
      await system.db.userMessage.updateMany({ where: { userId: guest.id, messageId: { in: [second, first] } }, data: { flags: { increment: 2 } } });
      const body = await fetch(guest, ['starred_messages']);
      expect(body.starred_messages).toEqual([first, second]);
      expectValid(body);
      expect((await fetch(admin, ['starred_messages'])).starred_messages).toEqual([]);
    });

    it('serves the organization\'s custom emoji by id, deactivated ones included', async () => {
      const party = await system.db.realmEmoji.create({ data: { realmId, name: 'party', fileName: 'party.png', authorId: member.id } });
      const old = await system.db.realmEmoji.create({ data: { realmId, name: 'old', fileName: 'old.gif', deactivated: true } });
      await system.db.realmEmoji.create({ data: { realmId: outsider.realmId, name: 'theirs', fileName: 'theirs.png' } });
      const body = await fetch(member, ['realm_emoji']);
      expect(body.realm_emoji).toEqual({
        [party.id]: { id: String(party.id), name: 'party', source_url: `/user_avatars/${realmId}/emoji/images/party.png`, still_url: null, deactivated: false, author_id: member.id },
        [old.id]: { id: String(old.id), name: 'old', source_url: `/user_avatars/${realmId}/emoji/images/old.gif`, still_url: null, deactivated: true, author_id: null },
      });
      expectValid(body);
    });

    it('serves every bot to administrators and their own bots to others', async () => {
      const mine = await factory.user({ id: realmId }, { fullName: 'Mine Bot', isBot: true, botOwnerId: member.id });
      const theirs = await factory.user({ id: realmId }, { fullName: 'Their Bot', isBot: true, botOwnerId: other.id });
      const bots = (body: State) => (body.realm_bots as { user_id: number }[]).map((bot) => bot.user_id);
      const asMember = await fetch(member, ['realm_bot']);
      expect(bots(asMember)).toEqual([mine.id]);
      expect((asMember.realm_bots as State[])[0]).toMatchObject({
        user_id: mine.id,
        full_name: 'Mine Bot',
        owner_id: member.id,
        bot_type: 1,
        is_active: true,
        services: [],
        default_sending_stream: null,
        default_all_public_streams: false,
      });
      expectValid(asMember);
      const asAdmin = await fetch(admin, ['realm_bot']);
      expect(bots(asAdmin)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
      expectValid(asAdmin);
      expect((await fetch(idle, ['realm_bot'])).realm_bots).toEqual([]);
    });
  });

  describe('isolation', () => {
    it('shows nothing of another organization', async () => {
      const body = await register(member, { include_subscribers: true });
      const text = JSON.stringify(body);
      expect(text).not.toContain(outsider.email);
      expect(text).not.toContain('Oscar Outsider');
      expect(text).not.toContain('foreign-only');
      expect(text).not.toContain('foreign draft');
      expect(text).not.toContain('Shoe size');
      const ids = (list: unknown) => (list as Channel[]).map((c) => c.stream_id);
      for (const list of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) expect(ids(body[list])).not.toContain(foreign.id);
      expect((body.realm_users as Member[]).map((m) => m.user_id)).not.toContain(outsider.id);

      const theirs = await register(outsider, { include_subscribers: true }, outsiderSubdomain);
      expect(names(theirs.subscriptions)).toEqual(['foreign-only']);
      expect(names(theirs.streams)).toEqual(['foreign-only']);
      expect(theirs.never_subscribed).toEqual([]);
      expect((theirs.realm_users as Member[]).map((m) => m.user_id)).toEqual([outsider.id]);
      expect((theirs.drafts as { content: string }[]).map((d) => d.content)).toEqual(['foreign draft']);
      expect((theirs.custom_profile_fields as { name: string }[]).map((f) => f.name)).toEqual(['Shoe size']);
      expect(theirs.realm_can_mention_many_users_group).toBe(await factory.systemGroupId({ id: outsider.realmId }, 'role:administrators'));
      expect((theirs.realm_user_groups as { id: number }[]).map((g) => g.id)).not.toContain(await factory.systemGroupId({ id: realmId }, 'role:members'));
      expect(JSON.stringify(theirs)).not.toContain(member.email);
      expectValid(theirs);
    });
  });
});

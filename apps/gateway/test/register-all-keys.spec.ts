import { CHANNEL_PERMISSION_SETTING_NAMES, GROUP_PERMISSION_SETTING_NAMES, UsersGroups } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectMatchesOpenApi,
  expectMatchesZulipOpenApi,
  expectSuccess,
  loadZulipReference,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

type State = Record<string, unknown>;

/** Every fetch key Zulip lists (zerver/lib/events.py fetch_initial_state_data). */
const ZULIP_FETCH_KEYS = [
  'alert_words', 'custom_profile_fields', 'default_stream_groups', 'default_streams', 'drafts', 'message', 'muted_topics',
  'muted_users', 'navigation_views', 'onboarding_steps', 'presence', 'push_device', 'realm', 'realm_bot', 'realm_domains',
  'realm_embedded_bots', 'realm_emoji', 'realm_filters', 'realm_incoming_webhook_bots', 'realm_linkifiers', 'realm_playgrounds',
  'realm_user', 'realm_user_groups', 'realm_user_settings_defaults', 'recent_private_conversations', 'reminders', 'saved_snippets',
  'scheduled_messages', 'starred_messages', 'stream', 'subscription', 'update_display_settings', 'update_global_notifications',
  'update_message_flags', 'user_settings', 'user_status', 'user_topic', 'video_calls', 'channel_folders',
];

/**
 * The keys of Zulip's /register response we do not send, each with why. Everything else Zulip's
 * description lists must be in the answer to a request for every fetch key.
 */
const NOT_SENT: Record<string, string> = {
  ignored_parameters_unsupported: 'only when a parameter was ignored',
  // Deprecated copies Zulip sends only to clients without user_settings_object (tested in register-state.spec.ts).
  ...Object.fromEntries(
    [
      'enable_desktop_notifications', 'enable_digest_emails', 'enable_login_emails', 'enable_marketing_emails',
      'email_notifications_batching_period_seconds', 'enable_offline_email_notifications', 'enable_offline_push_notifications',
      'enable_online_push_notifications', 'enable_sounds', 'enable_stream_desktop_notifications', 'enable_stream_email_notifications',
      'enable_stream_push_notifications', 'enable_stream_audible_notifications', 'wildcard_mentions_notify',
      'message_content_in_email_notifications', 'notification_sound', 'pm_content_in_desktop_notifications', 'desktop_icon_count_display',
      'realm_name_in_email_notifications_policy', 'presence_enabled', 'available_notification_sounds', 'color_scheme', 'default_language',
      'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization', 'fluid_layout_width', 'web_home_view', 'high_contrast_mode',
      'left_side_userlist', 'starred_message_counts', 'timezone', 'translate_emoticons', 'twenty_four_hour_time',
      'receives_typing_notifications', 'enter_sends', 'emojiset_choices',
    ].map((key) => [key, 'legacy top-level setting, for clients without user_settings_object']),
  ),
  muted_topics: 'deprecated: left out when user_topic is asked for, as in Zulip',
  settings_send_digest_emails: 'sent by Zulip only when the server sends digest emails (SEND_DIGEST_EMAILS)',
  realm_billing: 'Zulip Cloud only (CORPORATE_ENABLED)',
  demo_organization_scheduled_deletion_date: 'only for demo organizations',
  giphy_api_key: 'only when GIPHY is configured',
  realm_push_notifications_enabled_end_timestamp: 'Zulip sends it with push notifications; null until the relay reports an end',
  stop_words: 'only with the search feature (another part of issue 14)',
  realm_default_external_accounts: 'only with custom profile fields of the external account type',
  server_timestamp: 'sent with presence',
};

/** Who may create channels, as the register state says, by role (the channel-creation rule). */
const CREATION_RULE = [
  ['member', { can_create_public_streams: true, can_create_private_streams: true, can_create_web_public_streams: false, can_subscribe_other_users: true }],
  ['administrator', { can_create_public_streams: true, can_create_private_streams: true, can_create_web_public_streams: true, can_subscribe_other_users: true }],
  ['guest', { can_create_public_streams: false, can_create_private_streams: false, can_create_web_public_streams: false, can_subscribe_other_users: false }],
] as const;

describe('POST /register: every key Zulip lists, against Zulip\'s OpenAPI description', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let member: TestUser, admin: TestUser, guest: TestUser;

  const register = async (user: TestUser, params: Record<string, FormValue>) =>
    expectSuccess(await system.api.post<State>('/register', params, { auth: user, subdomain }));

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'allkeys' });
    ({ member, admin, guest } = org);
    subdomain = org.realm.subdomain;
    await factory.channel(org.realm, { name: 'general', subscribers: [member, admin, guest] });
    await factory.channel(org.realm, { name: 'private', inviteOnly: true, subscribers: [admin] });
    const left = await factory.channel(org.realm, { name: 'left', subscribers: [member] });
    await system.db.subscription.updateMany({ where: { streamId: left.id }, data: { active: false } });
    await factory.channel(org.realm, { name: 'never' });
    await system.db.stream.updateMany({ where: { realmId: org.realm.id, name: 'general' }, data: { isDefault: true } });
    await factory.user(org.realm, { role: Role.MEMBER, isActive: false });
  });
  afterAll(() => system?.stop());

  it.each([
    ['a member', () => member],
    ['an administrator', () => admin],
    ['a guest', () => guest],
  ])('answers %s asking for every fetch key with every key Zulip lists, valid against Zulip\'s schema', async (_who, who) => {
    const body = await register(who(), {
      fetch_event_types: ZULIP_FETCH_KEYS,
      include_subscribers: true,
      client_capabilities: { user_settings_object: true, notification_settings_null: true },
    });
    expectMatchesOpenApi('post', '/register', body);
    expectMatchesZulipOpenApi('post', '/register', body);
  });

  it.each(CREATION_RULE)('tells the %s which channels they may create, as POST /channels/create decides', async (who, expected) => {
    const user = { member, administrator: admin, guest }[who];
    const body = await register(user, { fetch_event_types: ['realm'] });
    expect(body).toMatchObject({ ...expected, can_create_streams: expected.can_create_public_streams, can_invite_others_to_realm: false });
    const res = await system.api.post('/channels/create', { name: `by ${who}`, subscribers: [], is_web_public: true }, { auth: user, subdomain });
    expect(res.status).toBe(expected.can_create_web_public_streams ? 200 : 400);
  });

  it('serves the organization\'s permission settings with their system groups, and how each setting behaves', async () => {
    const body = await register(member, { fetch_event_types: ['realm'] });
    const systemGroups = new Map(
      (await system.db.userGroup.findMany({ where: { realmId: member.realmId, isSystemGroup: true } })).map((group) => [group.name, group.id]),
    );
    // Each at its default system group (none is changed here; PATCH /realm is tested in users-groups).
    for (const name of UsersGroups.REALM_GROUP_SETTING_NAMES) {
      expect([name, body[`realm_${name}`]]).toEqual([name, systemGroups.get(UsersGroups.REALM_SETTINGS[name].defaultGroup)]);
    }
    const settings = body.server_supported_permission_settings as Record<string, Record<string, { allow_everyone_group: boolean; default_group_name: string }>>;
    expect(Object.keys(settings.stream).sort()).toEqual([...CHANNEL_PERMISSION_SETTING_NAMES].sort());
    expect(Object.keys(settings.group).sort()).toEqual([...GROUP_PERMISSION_SETTING_NAMES].sort());
    expect(Object.keys(settings.realm).sort()).toEqual([...UsersGroups.REALM_GROUP_SETTING_NAMES].sort());
    expect(settings.stream.can_send_message_group).toMatchObject({ allow_everyone_group: true, default_group_name: 'role:everyone' });
    expect(settings.stream.can_subscribe_group).toMatchObject({ allow_everyone_group: false, default_group_name: 'role:nobody' });
    expect(settings.group.can_manage_group).toMatchObject({ default_group_name: 'group_creator' });
    expect(body).toMatchObject({ realm_bot_domain: `${subdomain}.testserver.local`, realm_upload_quota_mib: null, realm_message_retention_days: -1 });
    expect(body.avatar_url_medium).toBeUndefined();
    expect((await register(member, { fetch_event_types: ['realm_user'] })).avatar_url_medium).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&s=500&version=1$/);
  });

  it('lists every key of Zulip\'s description but the ones it sends only in other circumstances', async () => {
    const reference = loadZulipReference();
    if (!reference) return;
    const body = await register(member, {
      fetch_event_types: ZULIP_FETCH_KEYS,
      client_capabilities: { user_settings_object: true, notification_settings_null: true },
    });
    const missing = zulipRegisterKeys(reference).filter((key) => !(key in body) && !(key in NOT_SENT));
    expect(missing).toEqual([]);
  });

  it('answers old clients (no capabilities, every key) valid against Zulip\'s schema too', async () => {
    const body = await register(member, {});
    expectMatchesOpenApi('post', '/register', body);
    expectMatchesZulipOpenApi('post', '/register', body);
    expect(body).toHaveProperty('realm_default_streams');
    expect(body).toHaveProperty('enter_sends');
  });

  it('serves GET /streams valid against Zulip\'s schema', async () => {
    const body = expectSuccess(await system.api.get<State>('/streams', { include_all: true }, { auth: admin, subdomain }));
    expectMatchesZulipOpenApi('get', '/streams', body);
    const subscriptions = expectSuccess(await system.api.get<State>('/users/me/subscriptions', { include_subscribers: true }, { auth: member, subdomain }));
    expectMatchesZulipOpenApi('get', '/users/me/subscriptions', subscriptions);
  });
});

/** The top-level keys Zulip's /register success response declares. */
function zulipRegisterKeys(root: Record<string, unknown>): string[] {
  const resolve = (node: Record<string, unknown>): Record<string, unknown> => {
    let current = node;
    while (typeof current.$ref === 'string') {
      current = current.$ref.replace(/^#\//, '').split('/').reduce<Record<string, unknown>>((n, k) => n[k] as Record<string, unknown>, root);
    }
    return current;
  };
  const keys = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    const schema = resolve(node);
    for (const part of (schema.allOf as Record<string, unknown>[]) ?? []) walk(part);
    for (const name of Object.keys((schema.properties as object) ?? {})) keys.add(name);
  };
  const paths = root.paths as Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
  const response = resolve(paths['/register'].post.responses['200']);
  walk((response.content as Record<string, { schema: Record<string, unknown> }>)['application/json'].schema);
  return [...keys].filter((key) => key !== 'result' && key !== 'msg');
}

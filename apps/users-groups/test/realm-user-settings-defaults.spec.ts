import { execFile } from 'node:child_process';
import path from 'node:path';
import { builtinSettingDefaults, type ClientEvent } from '@teamchat/contracts';
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

const DEFAULTS_CHANGED = 'event.users-groups.realm_user_settings_defaults_changed.v1';

/** Polls a queue without acknowledging anything until `count` events are pending, checking every answer against the document. */
async function pollUntil(queue: EventQueueClient, count: number): Promise<QueueEvent[]> {
  for (let attempt = 0; ; attempt++) {
    const body = expectSuccess(await queue.request({ dontBlock: true }));
    expectMatchesOpenApi('get', '/events', body);
    const pending = body.events.filter((event) => event.type !== 'heartbeat');
    if (pending.length >= count || attempt > 100) return pending;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const CLI = path.resolve(__dirname, '../../../dist/tools/admin/admin-cli.js');

describe('PATCH /realm/user_settings_defaults', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let realmId: number;
  let subdomain: string;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, idle: TestUser;
  let deactivated: TestUser, outsider: TestUser, outsiderAdmin: TestUser;

  const patch = (user: TestUser, form: Record<string, unknown>) =>
    system.api.patch('/realm/user_settings_defaults', form as never, { auth: user, subdomain });
  const storedDefaults = async () =>
    (await system.db.realm.findUniqueOrThrow({ where: { id: realmId } })).userSettingsDefaults as Record<string, unknown>;
  const register = async (user: TestUser, fetch: string[]) => {
    const res = await system.api.post('/register', { fetch_event_types: fetch }, { auth: user, subdomain });
    return expectSuccess(res);
  };
  const effectiveSettings = async (user: TestUser) => (await register(user, ['user_settings'])).user_settings as Record<string, unknown>;
  /** Creates an account the way the product does (CreateUser, through the admin command line). */
  const createUserWithCli = (email: string): Promise<void> =>
    new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [CLI, 'create-user', '--organization', subdomain, '--email', email, '--name', 'Newcomer', '--password', 'a good long passphrase'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATABASE_URL: system.env.DATABASE_URL,
            EXTERNAL_URL: system.env.EXTERNAL_URL,
            NATS_URL: system.env.NATS_URL,
            NATS_SUBJECT_PREFIX: system.env.NATS_SUBJECT_PREFIX,
            LOG_LEVEL: 'warn',
          },
        },
        (error, _stdout, stderr) => (error ? reject(new Error(stderr)) : resolve()),
      );
    });

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'defaults' });
    realmId = org.realm.id;
    subdomain = org.realm.subdomain;
    ({ owner, admin, member, guest } = org);
    moderator = await factory.user(org.realm, { role: Role.MODERATOR });
    // Settings stored in full, as CreateUser stores them, and stored in part (older rows).
    idle = await factory.user(org.realm, { settings: { ...builtinSettingDefaults() } });
    deactivated = await factory.user(org.realm, { isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'defaults-elsewhere' });
    outsider = await factory.user(elsewhere);
    outsiderAdmin = await factory.user(elsewhere, { role: Role.ADMINISTRATOR });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());

  it('changes the defaults for new users, announces each changed one to everyone active, and leaves existing users alone', async () => {
    const before = { member: await effectiveSettings(member), idle: await effectiveSettings(idle) };
    events.clear();
    const queue = await EventQueueClient.register(system.api, { auth: guest, subdomain }, { event_types: ['realm_user_settings_defaults'] });

    const res = await patch(admin, { left_side_userlist: true, web_home_view: 'recent_topics', emojiset: 'twitter', enter_sends: true, color_scheme: 1 });
    expectMatchesOpenApi('patch', '/realm/user_settings_defaults', expectSuccess(res));
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');

    expect(await storedDefaults()).toMatchObject({ left_side_userlist: true, web_home_view: 'recent_topics', emojiset: 'twitter', enter_sends: true });
    // color_scheme was already 1: no event for it.
    const published = await events.waitFor<ClientEvent>(DEFAULTS_CHANGED, 4);
    expect(await events.settle(DEFAULTS_CHANGED)).toHaveLength(4);
    expect(published.map((e) => e.event).sort((a, b) => String(a.property).localeCompare(String(b.property)))).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'twitter' },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'left_side_userlist', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'web_home_view', value: 'recent_topics' },
    ]);
    for (const event of published) {
      expect([...event.users].sort((a, b) => a - b)).toEqual([owner.id, admin.id, member.id, guest.id, moderator.id, idle.id].sort((a, b) => a - b));
    }

    // A guest's queue gets them, as GET /events describes them.
    const delivered = await pollUntil(queue, 4);
    expect(delivered.map((event) => [event.type, event.property])).toEqual(
      expect.arrayContaining([
        ['realm_user_settings_defaults', 'emojiset'],
        ['realm_user_settings_defaults', 'enter_sends'],
        ['realm_user_settings_defaults', 'left_side_userlist'],
        ['realm_user_settings_defaults', 'web_home_view'],
      ]),
    );

    // POST /register shows the new defaults.
    const { realm_user_settings_defaults: defaults } = await register(member, ['realm_user_settings_defaults']);
    expect(defaults).toMatchObject({ left_side_userlist: true, web_home_view: 'recent_topics', emojiset: 'twitter', enter_sends: true, default_language: 'en' });

    // Nobody who existed sees a difference, whether their settings were stored in full or not.
    expect(await effectiveSettings(member)).toEqual(before.member);
    expect(await effectiveSettings(idle)).toEqual(before.idle);
  });

  it('makes accounts created afterwards start from the new defaults', async () => {
    expectSuccess(await patch(owner, { twenty_four_hour_time: true, user_list_style: 2 }));
    await createUserWithCli('newcomer@example.test');
    const created = await system.db.user.findFirstOrThrow({ where: { realmId, deliveryEmail: 'newcomer@example.test' } });
    expect(created.settings).toMatchObject({ twenty_four_hour_time: true, user_list_style: 2, left_side_userlist: true, web_home_view: 'recent_topics' });
    // One made straight in the database, with nothing stored, reads them too.
    const fresh = await factory.user({ id: realmId });
    expect(await effectiveSettings(fresh)).toMatchObject({ twenty_four_hour_time: true, user_list_style: 2, enter_sends: true });
    // And the users from before still have theirs.
    expect(await effectiveSettings(member)).toMatchObject({ twenty_four_hour_time: false, user_list_style: 3, enter_sends: false });
  });

  it('announces nothing and stores nothing new when every value is already the default', async () => {
    const stored = await storedDefaults();
    events.clear();
    expectSuccess(await patch(admin, { left_side_userlist: true, emojiset: 'twitter' }));
    expect(await events.publishedByNow(DEFAULTS_CHANGED)).toEqual([]);
    expect(await storedDefaults()).toEqual(stored);
  });

  it('takes the organization-default-only settings, and reports personal-only and unknown ones as unsupported', async () => {
    const res = await patch(admin, {
      enable_digest_emails: false,
      presence_enabled: false,
      email_address_visibility: 3,
      resolved_topic_notice_auto_read_policy: 'never',
      default_language: 'de',
      timezone: 'Europe/Paris',
      full_name: 'Nope',
      favourite_colour: 'blue',
    });
    const body = expectSuccess(res);
    expectMatchesOpenApi('patch', '/realm/user_settings_defaults', body);
    expect([...(body.ignored_parameters_unsupported as string[])].sort()).toEqual(['default_language', 'favourite_colour', 'full_name', 'timezone']);
    const stored = await storedDefaults();
    expect(stored).toMatchObject({ enable_digest_emails: false, presence_enabled: false, email_address_visibility: 3, resolved_topic_notice_auto_read_policy: 'never' });
    expect(stored).not.toHaveProperty('default_language');
    expect(stored).not.toHaveProperty('timezone');
  });

  it.each([
    [{ color_scheme: 7 }, 'Invalid color_scheme'],
    [{ web_channel_default_view: 5 }, 'Invalid web_channel_default_view'],
    [{ web_mark_read_on_scroll_policy: 0 }, 'Invalid web_mark_read_on_scroll_policy'],
    [{ demote_inactive_streams: 4 }, 'Invalid demote_inactive_streams'],
    [{ user_list_style: 0 }, 'Invalid user_list_style'],
    [{ web_stream_unreads_count_display_policy: 4 }, 'Invalid web_stream_unreads_count_display_policy'],
    [{ desktop_icon_count_display: 5 }, 'Invalid desktop_icon_count_display'],
    [{ realm_name_in_email_notifications_policy: 4 }, 'Invalid realm_name_in_email_notifications_policy'],
    [{ automatically_follow_topics_policy: 0 }, 'Invalid automatically_follow_topics_policy'],
    [{ automatically_unmute_topics_in_muted_streams_policy: 5 }, 'Invalid automatically_unmute_topics_in_muted_streams_policy'],
    [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
    [{ web_home_view: 'elsewhere' }, 'Invalid web_home_view'],
    [{ emojiset: 'comic' }, 'Invalid emojiset'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
    [{ resolved_topic_notice_auto_read_policy: 'maybe' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    [{ notification_sound: 'klaxon' }, "Invalid notification sound 'klaxon'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    // Zulip reads every parameter before its view checks the sound and the batching period.
    [{ notification_sound: 'klaxon', emojiset: 'comic' }, 'Invalid emojiset'],
    [{ left_side_userlist: 'yes' }, 'left_side_userlist is not valid JSON'],
    [{ left_side_userlist: 1 }, 'left_side_userlist is not a boolean'],
    [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
    [{ emojiset: 'text\u0000' }, 'emojiset must not contain null bytes'],
  ])('refuses %j as PATCH /settings does, and changes nothing', async (form, msg) => {
    const stored = await storedDefaults();
    const users = await system.db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
    events.clear();
    // A valid change rides along: the whole request must be refused.
    const res = await patch(admin, { fluid_layout_width: true, ...form });
    expectError(res, 400, 'BAD_REQUEST', msg);
    expectMatchesOpenApi('patch', '/realm/user_settings_defaults', res.body, 400);
    expect(await storedDefaults()).toEqual(stored);
    expect(await system.db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } })).toEqual(users);
    expect(await events.publishedByNow(DEFAULTS_CHANGED)).toEqual([]);
  });

  it('accepts the bounds of what Zulip accepts', async () => {
    expectSuccess(await patch(admin, { email_notifications_batching_period_seconds: 604800, web_font_size_px: 3, web_line_height_percent: 1000, notification_sound: 'none' }));
    expect(await storedDefaults()).toMatchObject({ email_notifications_batching_period_seconds: 604800, web_font_size_px: 3, notification_sound: 'none' });
    expectSuccess(await patch(admin, { notification_sound: 'ding' }));
  });

  it.each([
    ['a moderator', () => moderator],
    ['a member', () => member],
    ['a guest', () => guest],
  ])('refuses %s: administrators only', async (_who, caller) => {
    const stored = await storedDefaults();
    events.clear();
    const res = await patch(caller(), { left_side_userlist: false });
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expect(await storedDefaults()).toEqual(stored);
    expect(await events.publishedByNow(DEFAULTS_CHANGED)).toEqual([]);
  });

  it('refuses callers without valid credentials, deactivated ones, and those of another organization, administrators included', async () => {
    const stored = await storedDefaults();
    await expectCallersRefused((options) => system.api.patch('/realm/user_settings_defaults', { left_side_userlist: false }, options), {
      subdomain,
      member: admin,
      outsider: outsiderAdmin,
      deactivated,
    });
    expectError(await patch(outsider, { left_side_userlist: false }), 401, 'UNAUTHORIZED', 'Account is not associated with this subdomain');
    expect(await storedDefaults()).toEqual(stored);
  });

  it("changes only the caller's organization", async () => {
    const elsewhere = await system.db.realm.findFirstOrThrow({ where: { subdomain: 'defaults-elsewhere' } });
    expectSuccess(await system.api.patch('/realm/user_settings_defaults', { high_contrast_mode: true }, { auth: outsiderAdmin, subdomain: 'defaults-elsewhere' }));
    expect((await system.db.realm.findUniqueOrThrow({ where: { id: elsewhere.id } })).userSettingsDefaults).toMatchObject({ high_contrast_mode: true });
    expect(await storedDefaults()).not.toHaveProperty('high_contrast_mode');
  });
});

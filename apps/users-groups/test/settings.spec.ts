import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import { Factory, TestSystem, expectCallersRefused, expectError, expectMatchesOpenApi, expectSuccess, type EventRecorder, type TestUser } from '@teamchat/testing';

const SETTINGS = 'event.users-groups.user_settings_changed.v1';
const REALM_USER = 'event.users-groups.realm_user_changed.v1';

describe('PATCH /settings', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let member: TestUser, other: TestUser, outsider: TestUser;

  const patch = (user: TestUser, form: Record<string, unknown>) => system.api.patch('/settings', form as never, { auth: user, subdomain });
  const settingsOf = async (user: TestUser) =>
    (await system.db.user.findUniqueOrThrow({ where: { id: user.id } })).settings as Record<string, unknown>;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'prefs' });
    subdomain = org.realm.subdomain;
    member = org.member;
    other = org.admin;
    const elsewhere = await factory.organization({ subdomain: 'prefs-elsewhere' });
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());

  it('changes the given settings only, and announces each change to the user', async () => {
    events.clear();
    const res = await patch(member, { twenty_four_hour_time: true, color_scheme: 2, emojiset: 'twitter', web_font_size_px: 18 });
    expectMatchesOpenApi('patch', '/settings', expectSuccess(res));
    expect(await settingsOf(member)).toMatchObject({
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'twitter',
      web_font_size_px: 18,
      enter_sends: false,
    });
    const published = await events.waitFor<ClientEvent>(SETTINGS, 4);
    expect(published.map((e) => e.event.property).sort()).toEqual(['color_scheme', 'emojiset', 'twenty_four_hour_time', 'web_font_size_px']);
    expect(published.every((e) => e.users.length === 1 && e.users[0] === member.id)).toBe(true);
    expect(published.find((e) => e.event.property === 'color_scheme')?.event).toEqual({
      type: 'user_settings',
      op: 'update',
      property: 'color_scheme',
      value: 2,
    });
  });

  it('reports parameters it does not support', async () => {
    const body = expectSuccess(await patch(member, { favourite_colour: 'blue', high_contrast_mode: true }));
    expect(body.ignored_parameters_unsupported).toEqual(['favourite_colour']);
    expect(await settingsOf(member)).toMatchObject({ high_contrast_mode: true });
  });

  it("takes the settings Zulip's json_change_settings takes beside the organization defaults' (enter_sends, presence_enabled, enable_login_emails, …)", async () => {
    const changes = { enter_sends: true, presence_enabled: false, automatically_follow_topics_policy: 1, send_read_receipts: false, enable_login_emails: false, enable_marketing_emails: false };
    const body = expectSuccess(await patch(member, changes));
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    expect(await settingsOf(member)).toMatchObject(changes);
    expectSuccess(await patch(member, { enter_sends: false, presence_enabled: true, automatically_follow_topics_policy: 3, send_read_receipts: true, enable_login_emails: true, enable_marketing_emails: true }));
  });

  it("tells the organization of an email_address_visibility change as Zulip does: who may see the real address, and the address the API shows", async () => {
    const shy = await factory.user({ id: member.realmId }, { fullName: 'Shy Member' });
    const viewers = (await system.db.user.findMany({ where: { realmId: member.realmId, isActive: true }, select: { id: true, role: true } })).sort((a, b) => a.id - b.id);
    const nonAdmins = viewers.filter((viewer) => viewer.id !== shy.id && viewer.role > Role.ADMINISTRATOR).map((viewer) => viewer.id);
    events.clear();
    expectSuccess(await patch(shy, { email_address_visibility: 3 }));
    const hidden = (await events.waitFor<ClientEvent>(REALM_USER, 3)).map((e) => [e.users, e.event.person]);
    const everyone = viewers.map((viewer) => viewer.id);
    expect(hidden).toEqual([
      [nonAdmins, { user_id: shy.id, delivery_email: null }],
      [everyone, { user_id: shy.id, new_email: expect.stringMatching(new RegExp(`^user${shy.id}@`)) }],
      [everyone, expect.objectContaining({ user_id: shy.id, avatar_url: expect.any(String), avatar_version: expect.any(Number) })],
    ]);
    events.clear();
    expectSuccess(await patch(shy, { email_address_visibility: 1 }));
    const shown = (await events.waitFor<ClientEvent>(REALM_USER, 3)).map((e) => [e.users, e.event.person]);
    expect(shown.slice(0, 2)).toEqual([
      [nonAdmins, { user_id: shy.id, delivery_email: shy.email }],
      [everyone, { user_id: shy.id, new_email: shy.email }],
    ]);
    // Between two values that both hide the address from the API, only the real address's audience changes.
    expectSuccess(await patch(shy, { email_address_visibility: 3 }));
    await events.waitFor<ClientEvent>(REALM_USER, 6);
    events.clear();
    expectSuccess(await patch(shy, { email_address_visibility: 4 }));
    expectSuccess(await patch(shy, { email_address_visibility: 3 }));
    const admins = viewers.filter((viewer) => viewer.id !== shy.id && viewer.role <= Role.ADMINISTRATOR).map((viewer) => viewer.id);
    const quiet = (await events.waitFor<ClientEvent>(REALM_USER, 2)).map((e) => [e.users, e.event.person]);
    expect(quiet).toEqual([
      [admins, { user_id: shy.id, delivery_email: null }],
      [admins, { user_id: shy.id, delivery_email: shy.email }],
    ]);
    expect(await events.settle(REALM_USER)).toHaveLength(2);
  });

  it('changes the full name and tells the organization', async () => {
    events.clear();
    expectSuccess(await patch(member, { full_name: '  Mia Renamed  ' }));
    expect((await system.db.user.findUniqueOrThrow({ where: { id: member.id } })).fullName).toBe('Mia Renamed');
    const [event] = await events.waitFor<ClientEvent>(REALM_USER);
    expect(event.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Mia Renamed' } });
    expect(event.users).toEqual(expect.arrayContaining([member.id, other.id]));
    expect(event.users).not.toContain(outsider.id);
  });

  it('changes the language to one the server lists, naming it in the event', async () => {
    events.clear();
    expectSuccess(await patch(member, { default_language: 'de' }));
    expect((await settingsOf(member)).default_language).toBe('de');
    const [event] = await events.waitFor<ClientEvent>(SETTINGS);
    expect(event).toEqual({
      realmId: member.realmId,
      users: [member.id],
      event: { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
    });
    const registered = expectSuccess(await system.api.post('/register', { fetch_event_types: ['user_settings'] }, { auth: member, subdomain }));
    expect(registered.user_settings).toMatchObject({ default_language: 'de' });
    expectSuccess(await patch(member, { default_language: 'pt-br' }));
    expectSuccess(await patch(member, { default_language: 'en' }));
  });

  it('refuses bots: the endpoint is for people', async () => {
    const bot = await factory.user({ id: member.realmId }, { isBot: true, botOwnerId: other.id });
    const before = await system.db.user.findUniqueOrThrow({ where: { id: bot.id } });
    expectError(await patch(bot, { left_side_userlist: true }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    expect(await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).toEqual(before);
  });

  it('accepts the bounds of what Zulip accepts', async () => {
    expectSuccess(await patch(member, { email_notifications_batching_period_seconds: 604800, web_font_size_px: 3, web_line_height_percent: 1000, notification_sound: 'none', timezone: '' }));
    expect(await settingsOf(member)).toMatchObject({ email_notifications_batching_period_seconds: 604800, web_font_size_px: 3, notification_sound: 'none' });
  });

  it('changes the time zone', async () => {
    expectSuccess(await patch(member, { timezone: 'Europe/Paris' }));
    expect((await system.db.user.findUniqueOrThrow({ where: { id: member.id } })).timezone).toBe('Europe/Paris');
  });

  it.each([
    [{ color_scheme: 7 }, 'Invalid color_scheme'],
    [{ web_home_view: 'elsewhere' }, 'Invalid web_home_view'],
    [{ emojiset: 'comic' }, 'Invalid emojiset'],
    [{ user_list_style: 0 }, 'Invalid user_list_style'],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ web_mark_read_on_scroll_policy: 4 }, 'Invalid web_mark_read_on_scroll_policy'],
    [{ web_channel_default_view: 0 }, 'Invalid web_channel_default_view'],
    [{ demote_inactive_streams: 0 }, 'Invalid demote_inactive_streams'],
    [{ web_stream_unreads_count_display_policy: 4 }, 'Invalid web_stream_unreads_count_display_policy'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
    [{ default_language: 'klingon' }, 'Invalid default_language'],
    [{ default_language: 'DE' }, 'Invalid default_language'],
    [{ default_language: '' }, 'Invalid default_language'],
    // Zulip reads every parameter first, then checks the language, the sound and the batching period, in that order.
    [{ notification_sound: 'klaxon', default_language: 'klingon' }, 'Invalid default_language'],
    [{ default_language: 'klingon', color_scheme: 9 }, 'Invalid color_scheme'],
    [{ notification_sound: 'klaxon' }, "Invalid notification sound 'klaxon'"],
    [{ timezone: 'Mars/Olympus' }, 'Invalid timezone: Mars/Olympus'],
    [{ full_name: '   ' }, 'Name too short!'],
    [{ full_name: 'x'.repeat(101) }, 'Name too long!'],
    [{ twenty_four_hour_time: 'yes' }, 'twenty_four_hour_time is not valid JSON'],
    [{ twenty_four_hour_time: 1 }, 'twenty_four_hour_time is not a boolean'],
    [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
    [{ full_name: 'nul\u0000name' }, 'full_name must not contain null bytes'],
  ])('refuses %j and changes nothing', async (form, msg) => {
    const before = await system.db.user.findUniqueOrThrow({ where: { id: member.id } });
    // A valid change rides along: the whole request must be refused.
    expectError(await patch(member, { left_side_userlist: true, ...form }), 400, 'BAD_REQUEST', msg);
    expect(await system.db.user.findUniqueOrThrow({ where: { id: member.id } })).toEqual(before);
  });

  it('deletes the stored drafts when drafts synchronisation is turned off', async () => {
    const created = expectSuccess(
      await system.api.post<{ ids: number[] }>(
        '/drafts',
        { drafts: [{ type: '', to: [], topic: '', content: 'keep me?' }] },
        { auth: member, subdomain },
      ),
    );
    expect(created.ids).toHaveLength(1);
    expect(await system.db.draft.count({ where: { userId: member.id } })).toBe(1);
    expectSuccess(await patch(member, { enable_drafts_synchronization: false }));
    expect(await system.db.draft.count({ where: { userId: member.id } })).toBe(0);
    expect((await settingsOf(member)).enable_drafts_synchronization).toBe(false);
    expectSuccess(await patch(member, { enable_drafts_synchronization: true }));
  });

  it('leaves other users’ drafts alone', async () => {
    expectSuccess(
      await system.api.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'mine' }] }, { auth: other, subdomain }),
    );
    expectSuccess(await patch(member, { enable_drafts_synchronization: false }));
    expect(await system.db.draft.count({ where: { userId: other.id } })).toBe(1);
    expectSuccess(await patch(member, { enable_drafts_synchronization: true }));
  });

  it('refuses callers without valid credentials or from another organization', async () => {
    await expectCallersRefused((options) => system.api.patch('/settings', { color_scheme: 2 }, options), { subdomain, member, outsider });
  });
});

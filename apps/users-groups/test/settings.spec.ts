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

  it('reports parameters it does not support, including organization-default-only settings', async () => {
    const body = expectSuccess(await patch(member, { enter_sends: true, favourite_colour: 'blue', high_contrast_mode: true }));
    expect(body.ignored_parameters_unsupported).toEqual(['enter_sends', 'favourite_colour']);
    expect(await settingsOf(member)).toMatchObject({ enter_sends: false, high_contrast_mode: true });
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

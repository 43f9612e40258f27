import { Realtime, resolveSettings, type ClientEvent } from '@teamchat/contracts';
import { CommandClient, loadConfig } from '@teamchat/platform';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const STATUS_CHANGED = 'event.presence.user_status_changed.v1';
const SETTINGS_CHANGED = 'event.users-groups.user_settings_changed.v1';

type Form = Record<string, FormValue>;
/** An expected message; a function when it names data made in beforeAll. */
type Message = string | (() => string);
interface StatusBody {
  status: Record<string, unknown>;
}

describe('user status', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser;
  let other: TestUser, deactivated: TestUser, bot: TestUser;
  let outsider: TestUser, outsiderMember: TestUser;
  let outsiderSubdomain: string;
  let party: { id: number }, old: { id: number }, foreignEmoji: { id: number };
  /** Every active user of the organization, bots included: who hears of a status change. */
  let everyone: number[];

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const setOwn = (user: TestUser, form: Form, sub = subdomain) => system.api.post('/users/me/status', form, as(user, sub));
  const setFor = (caller: TestUser, userId: number | string, form: Form, sub = subdomain) =>
    system.api.post(`/users/${userId}/status`, form, as(caller, sub));
  const get = (caller: TestUser, userId: number | string, sub = subdomain) => system.api.get<StatusBody>(`/users/${userId}/status`, {}, as(caller, sub));
  const statusOf = async (user: TestUser) => expectSuccess(await get(admin, user.id)).status;

  const rowOf = (user: { id: number }) => system.db.userStatus.findUnique({ where: { userId: user.id } });
  const shownRow = async (user: { id: number }) => {
    const row = await rowOf(user);
    return row && { statusText: row.statusText, emojiName: row.emojiName, emojiCode: row.emojiCode, reactionType: row.reactionType };
  };
  /** Every stored status and every user's settings, for "nothing changed" checks. */
  const snapshot = async () => ({
    statuses: await system.db.userStatus.findMany({ orderBy: { userId: 'asc' } }),
    settings: await system.db.user.findMany({ select: { id: true, settings: true }, orderBy: { id: 'asc' } }),
  });
  const presenceEnabled = async (user: { id: number }) => {
    const row = await system.db.user.findUniqueOrThrow({ where: { id: user.id }, include: { realm: true } });
    return resolveSettings(row.realm.userSettingsDefaults, row.settings).presence_enabled;
  };

  const theStatusEvent = async (): Promise<ClientEvent> => {
    const [event] = await events.waitFor<ClientEvent>(STATUS_CHANGED);
    expect(await events.settle(STATUS_CHANGED, 100)).toHaveLength(1);
    return event;
  };
  const expectNoEvent = async () => {
    expect(await events.publishedByNow(STATUS_CHANGED)).toEqual([]);
    expect(events.of(SETTINGS_CHANGED)).toEqual([]);
  };
  /** The body of an event as GET /events would serve it, checked against the reference. */
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const clear = async (user: TestUser) => {
    await system.db.userStatus.deleteMany({ where: { userId: user.id } });
    await factory.userSettings(user, { presence_enabled: true });
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'status' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Mo Moderator' });
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    bot = await factory.user(org.realm, { fullName: 'Helper Bot', isBot: true, botOwnerId: member.id });
    party = await factory.customEmoji(org.realm, { name: 'party', author: member });
    old = await factory.customEmoji(org.realm, { name: 'old', deactivated: true });
    everyone = [owner.id, admin.id, member.id, guest.id, moderator.id, other.id, bot.id].sort((a, b) => a - b);

    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    outsiderMember = await factory.user(elsewhere);
    foreignEmoji = await factory.customEmoji(elsewhere, { name: 'foreign_party' });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('POST /users/me/status', () => {
    beforeEach(() => clear(member));

    it('sets the status text and tells the whole organization', async () => {
      const body = expectSuccess(await setOwn(member, { status_text: 'on vacation' }));
      expectMatchesOpenApi('post', '/users/me/status', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await shownRow(member)).toEqual({ statusText: 'on vacation', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
      expect((await rowOf(member))!.realmId).toBe(realmId);
      const event = await theStatusEvent();
      expect(event).toEqual({ realmId, users: everyone, event: { type: 'user_status', user_id: member.id, status_text: 'on vacation' } });
      expectEventMatchesOpenApi(event.event);
      expect(await statusOf(member)).toEqual({ status_text: 'on vacation' });
    });

    it('changes only what is passed', async () => {
      expectSuccess(await setOwn(member, { status_text: 'busy', emoji_name: 'car' }));
      await theStatusEvent();
      events.clear();

      expectSuccess(await setOwn(member, { status_text: 'still busy' }));
      expect(await shownRow(member)).toEqual({ statusText: 'still busy', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' });
      expect((await theStatusEvent()).event).toEqual({ type: 'user_status', user_id: member.id, status_text: 'still busy' });
      events.clear();

      expectSuccess(await setOwn(member, { emoji_name: 'party' }));
      expect(await shownRow(member)).toEqual({ statusText: 'still busy', emojiName: 'party', emojiCode: String(party.id), reactionType: 'realm_emoji' });
      const event = await theStatusEvent();
      expect(event.event).toEqual({ type: 'user_status', user_id: member.id, emoji_name: 'party', emoji_code: String(party.id), reaction_type: 'realm_emoji' });
      expectEventMatchesOpenApi(event.event);
      expect(await statusOf(member)).toEqual({ status_text: 'still busy', emoji_name: 'party', emoji_code: String(party.id), reaction_type: 'realm_emoji' });
    });

    it('strips the text, and clears it and the emoji with empty values', async () => {
      expectSuccess(await setOwn(member, { status_text: '  spaced  ', emoji_name: 'octopus' }));
      expect(await shownRow(member)).toMatchObject({ statusText: 'spaced', emojiName: 'octopus', emojiCode: '1f419' });
      await theStatusEvent();
      events.clear();

      expectSuccess(await setOwn(member, { status_text: '', emoji_name: '' }));
      expect(await shownRow(member)).toEqual({ statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
      const event = await theStatusEvent();
      expect(event.event).toEqual({ type: 'user_status', user_id: member.id, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
      expectEventMatchesOpenApi(event.event);
      expect(await statusOf(member)).toEqual({});
    });

    it('clears the emoji whatever code and type come with the empty name', async () => {
      expectSuccess(await setOwn(member, { emoji_name: 'car' }));
      expectSuccess(await setOwn(member, { emoji_name: '', emoji_code: 'nonsense', reaction_type: 'sticker' }));
      expect(await shownRow(member)).toMatchObject({ emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
    });

    it('accepts 60 characters, counting characters rather than UTF-16 units', async () => {
      const text = '😀'.repeat(59) + 'é';
      expectSuccess(await setOwn(member, { status_text: ` ${text} ` }));
      expect((await rowOf(member))!.statusText).toBe(text);
    });

    it.each<[string, Form, Record<string, unknown>]>([
      ['a Unicode name alone', { emoji_name: 'car' }, { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }],
      ['a Zulip name alone', { emoji_name: 'thumbs_up' }, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }],
      ['the zulip emoji alone', { emoji_name: 'zulip' }, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }],
      [
        'a full Unicode triple',
        { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' },
        { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' },
      ],
      ['a name and its code', { emoji_name: 'grinning', emoji_code: '1f600' }, { emoji_name: 'grinning', emoji_code: '1f600', reaction_type: 'unicode_emoji' }],
      [
        'a custom triple',
        { emoji_name: 'party', reaction_type: 'realm_emoji' },
        { emoji_name: 'party', emoji_code: '<party>', reaction_type: 'realm_emoji' },
      ],
      [
        'the interface’s server_extra_emoji, shown as Zulip’s zulip_extra_emoji',
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'server_extra_emoji' },
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
      ],
    ])('sets the emoji from %s', async (_name, form, shown) => {
      const expected = { ...shown, ...(shown.emoji_code === '<party>' ? { emoji_code: String(party.id) } : {}) };
      expectSuccess(await setOwn(member, form));
      const event = await theStatusEvent();
      expect(event.event).toEqual({ type: 'user_status', user_id: member.id, ...expected });
      expectEventMatchesOpenApi(event.event);
      expect(await statusOf(member)).toEqual(expected);
    });

    it('sets away as presence_enabled off, through users-groups, and shows it', async () => {
      expectSuccess(await setOwn(member, { away: true }));
      expect(await presenceEnabled(member)).toBe(false);
      const event = await theStatusEvent();
      expect(event).toEqual({ realmId, users: everyone, event: { type: 'user_status', user_id: member.id, away: true } });
      expectEventMatchesOpenApi(event.event);
      const [settingEvent] = await events.waitFor<ClientEvent>(SETTINGS_CHANGED);
      expect(settingEvent).toEqual({
        realmId,
        users: [member.id],
        event: { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      });
      expect(await shownRow(member)).toEqual({ statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
      expect(await statusOf(member)).toEqual({ away: true });
    });

    it('echoes away every time but announces the setting only when it changes', async () => {
      await factory.userSettings(member, { presence_enabled: false });
      expectSuccess(await setOwn(member, { away: true, status_text: 'out' }));
      expect((await theStatusEvent()).event).toEqual({ type: 'user_status', user_id: member.id, away: true, status_text: 'out' });
      expect(await events.publishedByNow(SETTINGS_CHANGED)).toEqual([]);
      events.clear();

      expectSuccess(await setOwn(member, { away: false }));
      expect(await presenceEnabled(member)).toBe(true);
      expect((await theStatusEvent()).event).toEqual({ type: 'user_status', user_id: member.id, away: false });
      expect((await events.waitFor<ClientEvent>(SETTINGS_CHANGED))[0].event).toMatchObject({ property: 'presence_enabled', value: true });
      expect(await statusOf(member)).toEqual({ status_text: 'out' });
    });

    it('keeps the other settings when setting away', async () => {
      await factory.userSettings(member, { enter_sends: true, receives_typing_notifications: false });
      expectSuccess(await setOwn(member, { away: true }));
      const row = await system.db.user.findUniqueOrThrow({ where: { id: member.id } });
      expect(row.settings).toMatchObject({ enter_sends: true, receives_typing_notifications: false, presence_enabled: false });
      await factory.userSettings(member, { enter_sends: false, receives_typing_notifications: true });
    });

    it('reports unsupported parameters', async () => {
      const res = await setOwn(member, { status_text: 'x', user_id: other.id });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['user_id']);
      expect(await rowOf(other)).toBeNull();
    });

    const tooLong = 'x'.repeat(61);
    it.each<[string, () => Form, Message]>([
      ['nothing', () => ({}), 'Client did not pass any new values.'],
      ['only a code and a type', () => ({ emoji_code: '1f697', reaction_type: 'unicode_emoji' }), 'Client did not pass any new values.'],
      ['a text over 60 characters', () => ({ status_text: tooLong }), 'status_text is too long (limit: 60 characters)'],
      ['61 emoji', () => ({ status_text: '😀'.repeat(61) }), 'status_text is too long (limit: 60 characters)'],
      ['a code without a name', () => ({ status_text: 'x', emoji_code: '1f697' }), 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      ['a type without a name', () => ({ away: true, reaction_type: 'unicode_emoji' }), 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      ['an unknown emoji name', () => ({ emoji_name: 'no_such_emoji' }), "Emoji 'no_such_emoji' does not exist"],
      ['a deactivated custom emoji by name', () => ({ emoji_name: 'old' }), "Emoji 'old' does not exist"],
      ['another organization’s custom emoji by name', () => ({ emoji_name: 'foreign_party' }), "Emoji 'foreign_party' does not exist"],
      ['an unknown Unicode code', () => ({ emoji_name: 'car', emoji_code: '1f6970', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.'],
      ['a qualified Unicode code', () => ({ emoji_name: 'heart', emoji_code: '2764-fe0f', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.'],
      ['a name of another Unicode code', () => ({ emoji_name: 'car', emoji_code: '1f600', reaction_type: 'unicode_emoji' }), 'Invalid emoji name.'],
      ['an unknown custom emoji', () => ({ emoji_name: 'party', emoji_code: '999999', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.'],
      ['a custom code past the column range', () => ({ emoji_name: 'party', emoji_code: String(2 ** 40), reaction_type: 'realm_emoji' }), 'Invalid custom emoji.'],
      [
        'another organization’s custom emoji',
        () => ({ emoji_name: 'foreign_party', emoji_code: String(foreignEmoji.id), reaction_type: 'realm_emoji' }),
        'Invalid custom emoji.',
      ],
      ['a custom emoji under another name', () => ({ emoji_name: 'old', emoji_code: String(party.id), reaction_type: 'realm_emoji' }), 'Invalid custom emoji name.'],
      ['a deactivated custom emoji', () => ({ emoji_name: 'old', emoji_code: String(old.id), reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.'],
      ['a bundled emoji of another code', () => ({ emoji_name: 'zulip', emoji_code: 'octopus', reaction_type: 'zulip_extra_emoji' }), 'Invalid emoji code.'],
      ['a bundled emoji of another name', () => ({ emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'server_extra_emoji' }), 'Invalid emoji name.'],
      ['an unknown emoji type', () => ({ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'sticker' }), 'Invalid emoji type.'],
      ['a bad emoji with a valid text and away', () => ({ away: true, status_text: 'fine', emoji_name: 'nope' }), "Emoji 'nope' does not exist"],
      ['away that is not a boolean', () => ({ away: 'yes' }), 'away is not valid JSON'],
      ['away as a number', () => ({ away: 1 }), 'away is not a boolean'],
    ])('refuses %s, changing and announcing nothing', async (_name, form, msg) => {
      expectSuccess(await setOwn(member, { status_text: 'before', emoji_name: 'car' }));
      await theStatusEvent();
      events.clear();
      const before = await snapshot();
      const res = await setOwn(member, form());
      expectError(res, 400, 'BAD_REQUEST', typeof msg === 'function' ? msg() : msg);
      expectNoInternals(res);
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it('refuses bots', async () => {
      const before = await snapshot();
      expectError(await setOwn(bot, { status_text: 'beep' }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it('refuses anonymous, wrongly keyed, foreign and deactivated callers', async () => {
      const before = await snapshot();
      await expectCallersRefused((options) => system.api.post('/users/me/status', { status_text: 'x' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it('keeps organizations apart', async () => {
      expectSuccess(await setOwn(outsider, { status_text: 'elsewhere', emoji_name: 'foreign_party' }, outsiderSubdomain));
      const event = await theStatusEvent();
      expect(event.users).toEqual([outsider.id, outsiderMember.id].sort((a, b) => a - b));
      expect(event.event).toMatchObject({ emoji_code: String(foreignEmoji.id), reaction_type: 'realm_emoji' });
      expectError(await setOwn(outsider, { emoji_name: 'party' }, outsiderSubdomain), 400, 'BAD_REQUEST', "Emoji 'party' does not exist");
    });
  });

  describe('POST /users/{user_id}/status', () => {
    beforeEach(() => clear(other));

    it('lets an administrator set another user’s status, telling the organization', async () => {
      const body = expectSuccess(await setFor(admin, other.id, { status_text: 'in a meeting', emoji_name: 'calendar' }));
      expectMatchesOpenApi('post', '/users/{user_id}/status', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await shownRow(other)).toEqual({ statusText: 'in a meeting', emojiName: 'calendar', emojiCode: '1f4c6', reactionType: 'unicode_emoji' });
      expect(await rowOf(admin)).toBeNull();
      const event = await theStatusEvent();
      expect(event).toEqual({
        realmId,
        users: everyone,
        event: { type: 'user_status', user_id: other.id, status_text: 'in a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' },
      });
      expectEventMatchesOpenApi(event.event);
    });

    it('lets an owner do it too, and an administrator set their own this way', async () => {
      expectSuccess(await setFor(owner, other.id, { emoji_name: 'party' }));
      expect(await shownRow(other)).toMatchObject({ emojiName: 'party', emojiCode: String(party.id), reactionType: 'realm_emoji' });
      await theStatusEvent();
      expectSuccess(await setFor(admin, admin.id, { status_text: 'admin at work' }));
      expect(await shownRow(admin)).toMatchObject({ statusText: 'admin at work' });
      await system.db.userStatus.deleteMany({ where: { userId: admin.id } });
    });

    it('changes only what is passed, and does not take away', async () => {
      expectSuccess(await setFor(admin, other.id, { status_text: 'first', emoji_name: 'car' }));
      await theStatusEvent();
      events.clear();
      const res = await setFor(admin, other.id, { status_text: 'second', away: true });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['away']);
      expect(await shownRow(other)).toEqual({ statusText: 'second', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' });
      expect(await presenceEnabled(other)).toBe(true);
      expect((await theStatusEvent()).event).toEqual({ type: 'user_status', user_id: other.id, status_text: 'second' });
      expect(await events.publishedByNow(SETTINGS_CHANGED)).toEqual([]);
    });

    it('refuses only away as "no new values"', async () => {
      expectError(await setFor(admin, other.id, { away: true }), 400, 'BAD_REQUEST', 'Client did not pass any new values.');
      await expectNoEvent();
    });

    it.each<[string, () => TestUser]>([
      ['a member', () => member],
      ['a moderator', () => moderator],
      ['a guest', () => guest],
    ])('refuses %s with "Insufficient permission", even for their own status', async (_name, caller) => {
      const before = await snapshot();
      expectError(await setFor(caller(), other.id, { status_text: 'hacked' }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await setFor(caller(), caller().id, { status_text: 'mine' }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, () => number, string]>([
      ['an unknown user', () => 999999, 'No such user'],
      ['a user ID past the column range', () => 2 ** 40, 'No such user'],
      ['another organization’s user', () => outsiderMember.id, 'No such user'],
      ['a bot', () => bot.id, 'No such user'],
      ['a deactivated user', () => deactivated.id, 'User is deactivated'],
    ])('refuses %s', async (_name, target, msg) => {
      const before = await snapshot();
      expectError(await setFor(admin, target(), { status_text: 'x' }), 400, 'BAD_REQUEST', msg);
      // As in Zulip, the target is resolved before the caller's permission is checked.
      expectError(await setFor(member, target(), { status_text: 'x' }), 400, 'BAD_REQUEST', msg);
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, () => Form, Message]>([
      ['nothing', () => ({}), 'Client did not pass any new values.'],
      ['a text over 60 characters', () => ({ status_text: 'y'.repeat(61) }), 'status_text is too long (limit: 60 characters)'],
      ['a code without a name', () => ({ emoji_code: '1f697', status_text: 'x' }), 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      ['an unknown emoji name', () => ({ emoji_name: 'nope' }), "Emoji 'nope' does not exist"],
      ['an invalid emoji name', () => ({ emoji_name: 'car', emoji_code: '1f600', reaction_type: 'unicode_emoji' }), 'Invalid emoji name.'],
      ['an invalid custom emoji', () => ({ emoji_name: 'party', emoji_code: '999999', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.'],
      ['a deactivated custom emoji', () => ({ emoji_name: 'old', emoji_code: String(old.id), reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.'],
      ['an unknown emoji type', () => ({ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'sticker' }), 'Invalid emoji type.'],
    ])('refuses %s, changing and announcing nothing', async (_name, form, msg) => {
      const before = await snapshot();
      expectError(await setFor(admin, other.id, form()), 400, 'BAD_REQUEST', typeof msg === 'function' ? msg() : msg);
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it('does not let another organization’s administrator reach this organization’s users', async () => {
      const before = await snapshot();
      expectError(await setFor(outsider, other.id, { status_text: 'x' }, outsiderSubdomain), 400, 'BAD_REQUEST', 'No such user');
      expectError(await get(outsider, other.id, outsiderSubdomain), 400, 'BAD_REQUEST', 'No such user');
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });

    it.each([['abc'], ['1.5'], ['me2']])('answers the path /users/%s/status with a JSON 404', async (path) => {
      expectError(await setFor(admin, path, { status_text: 'x' }), 404, 'NOT_FOUND', 'Not Found');
      await expectNoEvent();
    });

    it('refuses anonymous, wrongly keyed, foreign and deactivated callers', async () => {
      const before = await snapshot();
      await expectCallersRefused((options) => system.api.post(`/users/${other.id}/status`, { status_text: 'x' }, options), {
        subdomain,
        member: admin,
        outsider,
        deactivated,
      });
      expect(await snapshot()).toEqual(before);
      await expectNoEvent();
    });
  });

  describe('GET /users/{user_id}/status', () => {
    beforeEach(async () => {
      await clear(member);
      await clear(other);
    });

    it('shows an empty status for a user who never set one, away or not', async () => {
      const body = expectSuccess(await get(member, other.id));
      expectMatchesOpenApi('get', '/users/{user_id}/status', body);
      expect(body).toEqual({ result: 'success', msg: '', status: {} });
      await factory.userSettings(other, { presence_enabled: false });
      expect(expectSuccess(await get(member, other.id)).status).toEqual({});
    });

    it('shows what is set to anyone in the organization, guests included', async () => {
      expectSuccess(await setOwn(other, { status_text: 'on vacation', emoji_name: 'palm_tree', away: true }));
      const expected = { away: true, status_text: 'on vacation', emoji_name: 'palm_tree', emoji_code: '1f334', reaction_type: 'unicode_emoji' };
      for (const caller of [member, guest, other, owner]) {
        const body = expectSuccess(await get(caller, other.id));
        expectMatchesOpenApi('get', '/users/{user_id}/status', body);
        expect(body.status).toEqual(expected);
      }
    });

    it('shows nothing once the status is cleared and away is off', async () => {
      expectSuccess(await setOwn(other, { status_text: 'x', emoji_name: 'zulip', away: true }));
      expect(expectSuccess(await get(member, other.id)).status).toEqual({ away: true, status_text: 'x', emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
      expectSuccess(await setOwn(other, { status_text: '', emoji_name: '', away: false }));
      expect(expectSuccess(await get(member, other.id)).status).toEqual({});
    });

    it.each<[string, () => number, string]>([
      ['an unknown user', () => 999999, 'No such user'],
      ['another organization’s user', () => outsiderMember.id, 'No such user'],
      ['a bot', () => bot.id, 'No such user'],
      ['a deactivated user', () => deactivated.id, 'User is deactivated'],
    ])('refuses %s', async (_name, target, msg) => {
      expectError(await get(member, target()), 400, 'BAD_REQUEST', msg);
    });

    it('refuses anonymous, wrongly keyed, foreign and deactivated callers', async () => {
      await expectCallersRefused((options) => system.api.get(`/users/${other.id}/status`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('through POST /register and the clients’ event queues', () => {
    it('serves user_status in the initial state and delivers changes to every queue of the organization', async () => {
      await system.db.userStatus.deleteMany({ where: { realmId } });
      expectSuccess(await setOwn(member, { status_text: 'lunch', emoji_name: 'pizza' }));
      const register = (user: TestUser) =>
        EventQueueClient.register(system.api, as(user), { event_types: ['user_status'], fetch_event_types: ['user_status'] });
      const [watcher, self] = [await register(guest), await register(member)];
      expect(watcher.state.user_status).toEqual({ [member.id]: { status_text: 'lunch', emoji_name: 'pizza', emoji_code: '1f355', reaction_type: 'unicode_emoji' } });
      expectMatchesOpenApi('post', '/register', { ...watcher.state, result: 'success', msg: '' });

      expectSuccess(await setFor(admin, member.id, { status_text: '' }));
      for (const queue of [watcher, self]) {
        expect(await queue.waitFor('user_status')).toEqual([{ id: 0, type: 'user_status', user_id: member.id, status_text: '' }]);
      }
    });
  });

  describe('user_status in POST /register’s initial state', () => {
    let commands: CommandClient;
    beforeAll(() => {
      commands = new CommandClient(loadConfig({ NATS_URL: system.env.NATS_URL }));
    });
    afterAll(() => commands.onApplicationShutdown());

    /** Asks presence for its part of the state, as the gateway's POST /register does. */
    const registerState = async (caller: TestUser, fetchEventTypes: string[] | null) => {
      const realm = { id: realmId, subdomain, name: 'Test organization', url: `http://${subdomain}.testserver.local`, host: `${subdomain}.testserver.local` };
      const user = { id: caller.id, realmId, email: caller.email, deliveryEmail: caller.email, fullName: caller.fullName, role: caller.role, isBot: false };
      const payload = { realm, user, fetchEventTypes, clientGravatar: true, includeSubscribers: false, capabilities: {}, requestId: 'status-spec' };
      // This process's contracts carry no subject prefix: the system's is put on the command's subject.
      const command = { ...Realtime.registerState.presence, subject: system.env.NATS_SUBJECT_PREFIX + Realtime.registerState.presence.subject };
      return (await commands.call(command, payload, { timeoutMs: 10_000 })) as Record<string, unknown>;
    };

    it('lists the statuses that show anything, of active users only', async () => {
      await system.db.userStatus.deleteMany({});
      for (const user of [member, other, guest, moderator]) await factory.userSettings(user, { presence_enabled: true });
      expectSuccess(await setOwn(member, { status_text: 'hello', emoji_name: 'party' }));
      expectSuccess(await setOwn(other, { away: true }));
      expectSuccess(await setOwn(guest, { status_text: 'cleared' }));
      expectSuccess(await setOwn(guest, { status_text: '' }));
      expectSuccess(await setOwn(moderator, { emoji_name: 'zulip' }));
      // A deactivated user's status, and a user away without ever setting a status: not shown.
      await system.db.userStatus.create({ data: { userId: deactivated.id, realmId, statusText: 'gone' } });
      await factory.userSettings(owner, { presence_enabled: false });
      // Another organization's.
      expectSuccess(await setOwn(outsider, { status_text: 'elsewhere' }, outsiderSubdomain));

      const state = await registerState(member, null);
      expect(state).toEqual({
        user_status: {
          [member.id]: { status_text: 'hello', emoji_name: 'party', emoji_code: String(party.id), reaction_type: 'realm_emoji' },
          [other.id]: { away: true },
          [moderator.id]: { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
        },
        // Presence's own part of the state (fetch key `presence`; turning `away` off records the user as active: presence.spec.ts).
        presences: expect.any(Object),
        presence_last_update_id: expect.any(Number),
        server_timestamp: expect.any(Number),
      });
      expectMatchesOpenApi('post', '/register', {
        result: 'success',
        msg: '',
        queue_id: 'q',
        last_event_id: -1,
        zulip_feature_level: 420,
        zulip_version: '11.0',
        zulip_merge_base: '11.0',
        ...state,
      });
      expect(await registerState(member, ['user_status', 'message'])).toEqual({ user_status: state.user_status });
      await factory.userSettings(owner, { presence_enabled: true });
      await factory.userSettings(other, { presence_enabled: true });
    });

    it('answers nothing when user_status is not asked for', async () => {
      expect(await registerState(member, ['message', 'realm_user'])).toEqual({});
      expect(await registerState(member, [])).toEqual({});
    });

    it('answers an empty object for an organization without statuses', async () => {
      await system.db.userStatus.deleteMany({ where: { realmId } });
      expect(await registerState(member, ['user_status'])).toEqual({ user_status: {} });
    });
  });
});

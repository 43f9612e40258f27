import { createHash } from 'node:crypto';
import type { RealmModel } from '@teamchat/db';
import { Factory, TestSystem, expectError, expectMatchesOpenApi, expectSuccess, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

interface Member {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  avatar_url: string | null;
  avatar_version: number;
  date_joined: string;
  is_active: boolean;
  is_admin: boolean;
  is_owner: boolean;
  is_guest: boolean;
  is_bot: boolean;
  role: number;
  bot_type: number | null;
  bot_owner_id?: number | null;
  timezone?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

const JOINED = new Date('2024-03-05T07:08:09.123Z');
const gravatar = (email: string) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=1`;

describe('GET /users', () => {
  let system: TestSystem;
  let factory: Factory;
  let realm: RealmModel;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let bot: TestUser;
  let orphanBot: TestUser;
  let deactivated: TestUser;
  let outsider: TestUser;
  const on = { subdomain: 'roster' };

  /** GET /users as `viewer`, checked against the OpenAPI schema; the members by id. */
  async function list(viewer: TestUser | null, query: Record<string, string | boolean | number[]> = {}, subdomain = on.subdomain) {
    const res = await system.api.get('/users', query, { subdomain, ...(viewer ? { auth: viewer } : {}) });
    const body = expectSuccess(res) as { members: Member[] };
    expectMatchesOpenApi('get', '/users', body);
    return { members: body.members, byId: new Map(body.members.map((m) => [m.user_id, m])) };
  }

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: on.subdomain, name: 'Roster' });
    owner = await factory.user(realm, { role: Role.OWNER, fullName: 'Olivia Owner', email: 'Olivia.Owner@Example.Test', timezone: 'Europe/Paris' });
    admin = await factory.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Adam Admin' });
    moderator = await factory.user(realm, { role: Role.MODERATOR, fullName: 'Mo Moderator' });
    member = await factory.user(realm, { role: Role.MEMBER, fullName: 'Mia Member', timezone: 'America/New_York' });
    guest = await factory.user(realm, { role: Role.GUEST, fullName: 'Gus Guest' });
    bot = await factory.user(realm, { isBot: true, botOwnerId: member.id, fullName: 'Helper Bot', email: 'helper-bot@roster.example.test' });
    orphanBot = await factory.user(realm, { isBot: true, fullName: 'Orphan Bot' });
    deactivated = await factory.user(realm, { isActive: false, fullName: 'Dee Activated' });
    await system.db.user.updateMany({ where: { realmId: realm.id }, data: { dateJoined: JOINED } });

    const other = await factory.organization({ subdomain: 'elsewhere' });
    outsider = await factory.user(other, { role: Role.OWNER });
  });
  afterAll(() => system.stop());

  it('lists every account of the organization, active or not, bots included, in id order', async () => {
    const { members } = await list(owner);
    expect(members.map((m) => m.user_id)).toEqual(
      [owner, admin, moderator, member, guest, bot, orphanBot, deactivated].map((u) => u.id),
    );
  });

  it('formats each role with its flags', async () => {
    const { byId } = await list(owner);
    const flags = (u: TestUser) => {
      const m = byId.get(u.id)!;
      return { role: m.role, is_owner: m.is_owner, is_admin: m.is_admin, is_guest: m.is_guest, is_bot: m.is_bot, is_active: m.is_active };
    };
    expect(flags(owner)).toEqual({ role: 100, is_owner: true, is_admin: true, is_guest: false, is_bot: false, is_active: true });
    expect(flags(admin)).toEqual({ role: 200, is_owner: false, is_admin: true, is_guest: false, is_bot: false, is_active: true });
    expect(flags(moderator)).toEqual({ role: 300, is_owner: false, is_admin: false, is_guest: false, is_bot: false, is_active: true });
    expect(flags(member)).toEqual({ role: 400, is_owner: false, is_admin: false, is_guest: false, is_bot: false, is_active: true });
    expect(flags(guest)).toEqual({ role: 600, is_owner: false, is_admin: false, is_guest: true, is_bot: false, is_active: true });
    expect(flags(bot)).toEqual({ role: 400, is_owner: false, is_admin: false, is_guest: false, is_bot: true, is_active: true });
    expect(flags(deactivated)).toEqual({ role: 400, is_owner: false, is_admin: false, is_guest: false, is_bot: false, is_active: false });
  });

  it('gives every field of a human member record', async () => {
    const { byId } = await list(member);
    expect(byId.get(owner.id)).toEqual({
      user_id: owner.id,
      email: 'Olivia.Owner@Example.Test',
      delivery_email: 'Olivia.Owner@Example.Test',
      full_name: 'Olivia Owner',
      avatar_url: null,
      avatar_version: 1,
      date_joined: '2024-03-05T07:08+00:00',
      is_active: true,
      is_admin: true,
      is_owner: true,
      is_guest: false,
      is_bot: false,
      role: 100,
      bot_type: null,
      timezone: 'Europe/Paris',
    });
    expect(byId.get(member.id)?.timezone).toBe('America/New_York');
    expect(byId.get(admin.id)?.timezone).toBe('');
  });

  it('gives date_joined as ISO 8601 to the minute in UTC', async () => {
    const { members } = await list(guest);
    for (const m of members) expect(m.date_joined).toBe('2024-03-05T07:08+00:00');
  });

  it('gives bots their bot_type and bot_owner_id, null when the owner is gone', async () => {
    const { byId } = await list(owner);
    expect(byId.get(bot.id)).toEqual({
      user_id: bot.id,
      email: 'helper-bot@roster.example.test',
      delivery_email: 'helper-bot@roster.example.test',
      full_name: 'Helper Bot',
      avatar_url: null,
      avatar_version: 1,
      date_joined: '2024-03-05T07:08+00:00',
      is_active: true,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: true,
      role: 400,
      bot_type: 1,
      bot_owner_id: member.id,
      timezone: '',
    });
    expect(byId.get(orphanBot.id)).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: null });
    expect(byId.get(member.id)).not.toHaveProperty('bot_owner_id');
  });

  describe('avatars', () => {
    it('leaves avatar_url null for Gravatar users when client_gravatar is true (the default)', async () => {
      const implicit = await list(member);
      const explicit = await list(member, { client_gravatar: true });
      for (const { members } of [implicit, explicit]) for (const m of members) expect(m.avatar_url).toBeNull();
    });

    it('gives the Gravatar URL of the lowercased email when client_gravatar is false', async () => {
      const { byId } = await list(member, { client_gravatar: false });
      expect(byId.get(owner.id)?.avatar_url).toBe(gravatar('olivia.owner@example.test'));
      expect(byId.get(owner.id)?.avatar_url).toBe(
        'https://secure.gravatar.com/avatar/' +
          createHash('md5').update('olivia.owner@example.test').digest('hex') +
          '?d=identicon&version=1',
      );
      expect(byId.get(guest.id)?.avatar_url).toBe(gravatar(guest.email));
    });

    it('rejects a client_gravatar that is not a JSON boolean', async () => {
      expectError(await system.api.get('/users', { client_gravatar: '1' }, { ...on, auth: member }), 400, 'BAD_REQUEST', 'client_gravatar is not a boolean');
    });
  });

  describe('custom profile fields', () => {
    let phone: number;
    let bio: number;

    beforeAll(async () => {
      phone = (await system.db.customProfileField.create({ data: { realmId: realm.id, name: 'Phone', fieldType: 1 } })).id;
      bio = (await system.db.customProfileField.create({ data: { realmId: realm.id, name: 'Biography', fieldType: 2 } })).id;
      await system.db.customProfileFieldValue.createMany({
        data: [
          { userId: member.id, fieldId: phone, value: '+1 555 0100' },
          { userId: member.id, fieldId: bio, value: 'Likes **tea**', renderedValue: '<p>Likes <strong>tea</strong></p>' },
          { userId: bot.id, fieldId: phone, value: 'should never show' },
        ],
      });
    });

    it('adds profile_data keyed by field id when include_custom_profile_fields is true', async () => {
      const { byId } = await list(owner, { include_custom_profile_fields: true });
      expect(byId.get(member.id)?.profile_data).toEqual({
        [String(phone)]: { value: '+1 555 0100' },
        [String(bio)]: { value: 'Likes **tea**', rendered_value: '<p>Likes <strong>tea</strong></p>' },
      });
      expect(byId.get(owner.id)?.profile_data).toEqual({});
    });

    it('never gives profile_data to bots', async () => {
      const { byId } = await list(owner, { include_custom_profile_fields: true });
      expect(byId.get(bot.id)).not.toHaveProperty('profile_data');
      expect(byId.get(orphanBot.id)).not.toHaveProperty('profile_data');
    });

    it('leaves profile_data out unless asked', async () => {
      for (const query of [{}, { include_custom_profile_fields: false }] as Record<string, boolean>[]) {
        const { members } = await list(owner, query);
        for (const m of members) expect(m).not.toHaveProperty('profile_data');
      }
    });
  });

  describe('user_ids', () => {
    it('lists only the given users', async () => {
      const { members } = await list(member, { user_ids: [guest.id, owner.id] });
      expect(members.map((m) => m.user_id)).toEqual([owner.id, guest.id]);
    });

    it('lists a user once when given twice, and nobody for an empty list', async () => {
      expect((await list(member, { user_ids: [guest.id, guest.id] })).members.map((m) => m.user_id)).toEqual([guest.id]);
      expect((await list(member, { user_ids: [] })).members).toEqual([]);
    });

    it('refuses an id that names no user', async () => {
      expectError(await system.api.get('/users', { user_ids: [owner.id, 987654] }, { ...on, auth: member }), 400, 'BAD_REQUEST', 'Invalid user ID: 987654');
    });

    it('refuses an id beyond the 32-bit id range as an unknown user, not a server error', async () => {
      for (const big of [2147483648, 9999999999]) {
        expectError(await system.api.get('/users', { user_ids: [owner.id, big] }, { ...on, auth: member }), 400, 'BAD_REQUEST', `Invalid user ID: ${big}`);
      }
      expectError(await system.api.get('/users', { user_ids: [-1] }, { ...on, auth: member }), 400, 'BAD_REQUEST', 'Invalid user ID: -1');
    });

    it("refuses another organization's user id", async () => {
      expectError(
        await system.api.get('/users', { user_ids: [outsider.id] }, { ...on, auth: member }),
        400,
        'BAD_REQUEST',
        `Invalid user ID: ${outsider.id}`,
      );
    });

    it('refuses a list that is not JSON integers', async () => {
      expectError(await system.api.get('/users', { user_ids: '[1,"x"]' }, { ...on, auth: member }), 400, 'BAD_REQUEST', 'user_ids[1] is not an integer');
      expectError(await system.api.get('/users', { user_ids: '1,2' }, { ...on, auth: member }), 400, 'BAD_REQUEST', 'user_ids is not valid JSON');
    });
  });

  describe('email address visibility', () => {
    let hidden: TestUser;
    let dummy: string;

    beforeAll(async () => {
      hidden = await factory.user(realm, { fullName: 'Hidden Email', settings: { email_address_visibility: 3 } });
      dummy = `user${hidden.id}@roster.testserver.local`;
    });

    it('shows a dummy email to everyone when the address is visible to administrators only', async () => {
      for (const viewer of [owner, admin, moderator, member, guest, hidden]) {
        const { byId } = await list(viewer);
        expect(byId.get(hidden.id)?.email).toBe(dummy);
      }
    });

    it('gives delivery_email to administrators and to the user themself', async () => {
      for (const viewer of [owner, admin, hidden]) {
        expect((await list(viewer)).byId.get(hidden.id)?.delivery_email).toBe(hidden.email);
      }
    });

    it('gives delivery_email null to moderators, members and guests', async () => {
      for (const viewer of [moderator, member, guest]) {
        expect((await list(viewer)).byId.get(hidden.id)?.delivery_email).toBeNull();
      }
    });

    it('computes the Gravatar URL from the real address even when it is hidden', async () => {
      const { byId } = await list(member, { client_gravatar: false });
      expect(byId.get(hidden.id)?.avatar_url).toBe(gravatar(hidden.email));
    });

    it('gives delivery_email by role for each visibility value (1 everyone … 5 moderators)', async () => {
      const targets = new Map<number, TestUser>();
      for (const visibility of [1, 2, 3, 4, 5]) {
        targets.set(visibility, await factory.user(realm, { settings: { email_address_visibility: visibility } }));
      }
      const seen: Record<string, string> = {};
      for (const [name, viewer] of Object.entries({ owner, admin, moderator, member, guest })) {
        const { byId } = await list(viewer);
        seen[name] = [...targets]
          .map(([visibility, target]) => {
            const record = byId.get(target.id)!;
            expect(record.email).toBe(visibility === 1 ? target.email : `user${target.id}@roster.testserver.local`);
            return record.delivery_email === target.email ? 'Y' : record.delivery_email === null ? '-' : '?';
          })
          .join('');
      }
      // Columns: visibility 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators.
      expect(seen).toEqual({ owner: 'YYY-Y', admin: 'YYY-Y', moderator: 'YY--Y', member: 'YY---', guest: 'Y----' });
    });

    it('shows the real address of a user with the default visibility to every viewer', async () => {
      for (const viewer of [member, guest]) {
        const m = (await list(viewer)).byId.get(owner.id);
        expect({ email: m?.email, delivery_email: m?.delivery_email }).toEqual({ email: owner.email, delivery_email: owner.email });
      }
    });
  });

  it("never lists another organization's users", async () => {
    const { members } = await list(owner);
    expect(members.map((m) => m.user_id)).not.toContain(outsider.id);
    const theirs = await list(outsider, {}, 'elsewhere');
    expect(theirs.members.map((m) => m.user_id)).toEqual([outsider.id]);
  });

  describe('spectators (no credentials)', () => {
    it('lists users of an organization with public access, with less detail', async () => {
      const open = await factory.organization({ subdomain: 'open-house', enableSpectatorAccess: true });
      const host = await factory.user(open, { role: Role.OWNER, timezone: 'Asia/Tokyo', email: 'host@open.example.test' });
      const shy = await factory.user(open, { settings: { email_address_visibility: 4 } });
      await system.db.user.updateMany({ where: { realmId: open.id }, data: { dateJoined: JOINED } });

      const { members, byId } = await list(null, {}, 'open-house');
      expect(members.map((m) => m.user_id)).toEqual([host.id, shy.id]);
      expect(byId.get(host.id)).toEqual({
        user_id: host.id,
        email: 'host@open.example.test',
        delivery_email: null,
        full_name: 'Test User',
        avatar_url: null,
        avatar_version: 1,
        date_joined: '2024-03-05',
        is_active: true,
        is_admin: true,
        is_owner: true,
        is_guest: false,
        is_bot: false,
        role: 100,
        bot_type: null,
      });
      expect(byId.get(shy.id)).toMatchObject({ email: `user${shy.id}@open-house.testserver.local`, delivery_email: null });
      for (const m of members) expect(m).not.toHaveProperty('timezone');
    });

    it('asks for credentials on an organization without public access', async () => {
      const res = await system.api.get('/users', {}, on);
      expectError(res, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    });
  });
});

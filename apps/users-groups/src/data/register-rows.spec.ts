import type { Prisma, PrismaService } from '@teamchat/db';
import { useTestDatabase } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { BotRecords } from '../bots/bot-records';
import { UserGroupRecords } from '../groups/user-group-records';
import { RealmDirectory } from '../realms/realm-directory';
import { RegisterStateReader } from '../register/register-state.reader';
import { BotsRepository } from './bots.repository';
import { ChannelsReadonlyRepository } from './channels.readonly.repository';
import { CustomEmojiRepository } from './custom-emoji.repository';
import { GroupMembershipRepository } from './group-membership.repository';
import { NavigationViewsRepository } from './navigation-views.repository';
import { OrganizationsRepository } from './organizations.repository';
import { ProfileFieldsRepository } from './profile-fields.repository';
import { RealmSettingsRepository } from './realm-settings.repository';
import { UserGroupsRepository } from './user-groups.repository';
import { UsersRepository } from './users.repository';

/**
 * What POST /register reads through pg (users-groups' part) is what the Prisma queries it
 * replaced read: the same rows, key for key and value for value, in the same order, from the
 * pool and from inside a Prisma transaction (on its connection). Each Prisma query is written
 * out here as it was; a misnamed column, a lost filter or another order fails. Last, the whole
 * users-groups part of POST /register is read over that data with a Prisma client that throws
 * on any use: the path reaches Prisma nowhere.
 */
describe('POST /register rows through pg', () => {
  const db = useTestDatabase();
  let realm: { id: number; subdomain: string; name: string };
  let other: { id: number };
  let owner: { id: number };
  let admin: { id: number };
  let member: { id: number };
  /** Inside a Prisma interactive transaction, as the administration paths call them. */
  const inTransaction = <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) => db.prisma.$transaction(work);

  beforeAll(async () => {
    const staff = await db.factory.organizationWithStaff();
    ({ realm, owner, admin, member } = staff);
    other = await db.factory.organization();
  });

  it('the named groups with their subgroups (deactivated ones when asked, or only some ids)', async () => {
    const a = await db.factory.userGroup(realm, { name: 'alpha', members: [member], creator: admin });
    const b = await db.factory.userGroup(realm, { name: 'beta', members: [admin, member] });
    const c = await db.factory.userGroup(realm, { name: 'gamma', subgroupIds: [b.id, a.id] });
    const d = await db.factory.userGroup(realm, { name: 'delta', subgroupIds: [c.id] });
    await db.prisma.userGroup.update({ where: { id: d.id }, data: { deactivated: true, description: 'gone' } });
    // An anonymous group (a setting's value) and another organization's group are never listed.
    await db.prisma.userGroup.create({ data: { realmId: realm.id, subgroups: { create: [{ subgroupId: a.id }] } } });
    await db.factory.userGroup(other, { name: 'alpha' });

    const groups = new UserGroupsRepository(db.prisma, db.pg, new GroupMembershipRepository(db.pg));
    const prismaRead = (where: Prisma.UserGroupWhereInput, tx: Prisma.TransactionClient = db.prisma) =>
      tx.userGroup.findMany({
        where: { realmId: realm.id, name: { not: null }, ...where },
        include: { subgroups: { select: { subgroupId: true }, orderBy: { subgroupId: 'asc' } } },
        orderBy: { id: 'asc' },
      });

    const active = await prismaRead({ deactivated: false });
    expect(active.map((g) => g.name)).toStrictEqual(expect.arrayContaining(['role:members', 'alpha', 'beta', 'gamma']));
    expect(active.find((g) => g.id === c.id)!.subgroups).toStrictEqual([{ subgroupId: Math.min(a.id, b.id) }, { subgroupId: Math.max(a.id, b.id) }]);
    expect(await groups.namedWithSubgroups(realm.id)).toStrictEqual(active);

    const all = await prismaRead({});
    expect(all.map((g) => g.id)).toContain(d.id);
    expect(await groups.namedWithSubgroups(realm.id, { includeDeactivated: true })).toStrictEqual(all);

    const some = await prismaRead({ id: { in: [d.id, a.id] } });
    expect(some).toHaveLength(2);
    expect(await groups.namedWithSubgroups(realm.id, { includeDeactivated: true, ids: [d.id, a.id] })).toStrictEqual(some);
    expect(await groups.namedWithSubgroups(realm.id, { ids: [d.id, a.id] })).toStrictEqual(await prismaRead({ deactivated: false, id: { in: [d.id, a.id] } }));
    expect(await groups.namedWithSubgroups(realm.id, { ids: [] })).toStrictEqual([]);

    expect(await inTransaction((tx) => groups.namedWithSubgroups(realm.id, { includeDeactivated: true }, tx))).toStrictEqual(all);
    expect(await inTransaction((tx) => groups.namedWithSubgroups(realm.id, { includeDeactivated: true, ids: [c.id] }, tx))).toStrictEqual(
      await prismaRead({ id: { in: [c.id] } }),
    );
  });

  it('the custom profile fields, every column, in their order then id', async () => {
    const fields = new ProfileFieldsRepository(db.prisma, db.pg);
    for (const [name, fieldType, fieldData, order] of [
      ['Phone', 1, '', 3],
      ['Biography', 2, '', 1],
      ['Team', 3, JSON.stringify({ 0: { text: 'Red', order: '1' }, 1: { text: 'Blue', order: '2' } }), 2],
      ['Birthday', 4, '', 1],
      ['Mentor', 6, '', 5],
      ['GitHub', 7, JSON.stringify({ subtype: 'github', url_pattern: 'https://github.com/%(username)s' }), 4],
      ['Pronouns', 8, '', 0],
    ] as const) {
      await db.prisma.customProfileField.create({
        data: { realmId: realm.id, name, fieldType, fieldData, order, hint: `${name}?`, required: name === 'Team', displayInProfileSummary: name === 'Phone', editableByUser: name !== 'Mentor' },
      });
    }
    await db.prisma.customProfileField.create({ data: { realmId: other.id, name: 'Phone', fieldType: 1 } });

    const expected = await db.prisma.customProfileField.findMany({ where: { realmId: realm.id }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
    expect(expected.map((f) => f.name)).toStrictEqual(['Pronouns', 'Biography', 'Birthday', 'Team', 'Phone', 'GitHub', 'Mentor']);
    expect(await fields.ofRealm(realm.id)).toStrictEqual(expected);
    expect(await inTransaction((tx) => fields.ofRealm(realm.id, tx))).toStrictEqual(expected);
  });

  it("the user's navigation views, every column, oldest first", async () => {
    const views = new NavigationViewsRepository(db.prisma, db.pg);
    await db.prisma.navigationView.createMany({
      data: [
        { userId: member.id, fragment: 'narrow/is/starred', isPinned: true, name: null },
        { userId: member.id, fragment: 'narrow/channel/1-general', isPinned: false, name: 'General' },
        { userId: member.id, fragment: 'inbox', isPinned: false, name: null },
        { userId: admin.id, fragment: 'inbox', isPinned: true, name: null },
      ],
    });
    const expected = await db.prisma.navigationView.findMany({ where: { userId: member.id }, orderBy: { id: 'asc' } });
    expect(expected).toHaveLength(3);
    expect(await views.ofUser(member.id)).toStrictEqual(expected);
    expect(await views.ofUser(owner.id)).toStrictEqual([]);
  });

  it("the organization's custom emoji, deactivated ones included, in id order", async () => {
    const emoji = new CustomEmojiRepository(db.prisma, db.pg);
    await db.factory.customEmoji(realm, { name: 'party', author: member });
    await db.factory.customEmoji(realm, { name: 'gone', deactivated: true, author: admin });
    await db.factory.customEmoji(realm, { name: 'orphan' });
    await db.prisma.realmEmoji.create({ data: { realmId: realm.id, name: 'spin', fileName: 'spin.gif', isAnimated: true, authorId: owner.id } });
    await db.factory.customEmoji(other, { name: 'party' });

    const expected = await db.prisma.realmEmoji.findMany({
      where: { realmId: realm.id },
      orderBy: { id: 'asc' },
      select: { id: true, name: true, fileName: true, deactivated: true, isAnimated: true, authorId: true },
    });
    expect(expected.map((e) => [e.name, e.deactivated, e.isAnimated])).toStrictEqual([
      ['party', false, false],
      ['gone', true, false],
      ['orphan', false, false],
      ['spin', false, true],
    ]);
    expect(await emoji.ofRealm(realm.id)).toStrictEqual(expected);
    expect(await inTransaction((tx) => emoji.ofRealm(realm.id, tx))).toStrictEqual(expected);
  });

  it("the organization's email domains, in id order", async () => {
    const settings = new RealmSettingsRepository(db.prisma, db.pg);
    await db.prisma.realmDomain.createMany({
      data: [
        { realmId: realm.id, domain: 'zeta.example', allowSubdomains: true },
        { realmId: realm.id, domain: 'alpha.example', allowSubdomains: false },
        { realmId: other.id, domain: 'other.example' },
      ],
    });
    const expected = await db.prisma.realmDomain.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' }, select: { id: true, domain: true, allowSubdomains: true } });
    expect(expected.map((d) => d.domain)).toStrictEqual(['zeta.example', 'alpha.example']);
    expect(await settings.domains(realm.id)).toStrictEqual(expected);
    expect(await inTransaction((tx) => settings.domains(realm.id, tx))).toStrictEqual(expected);
    expect(await settings.domains(owner.id + 100000)).toStrictEqual([]);
  });

  it("the organization's bots with their API keys and services, oldest first, every bot or an owner's, and their default channels", async () => {
    const bots = new BotsRepository(db.prisma, db.pg);
    const channels = new ChannelsReadonlyRepository(db.prisma, db.pg);
    const general = await db.factory.channel(realm, { name: 'general' });
    const secret = await db.factory.channel(realm, { name: 'secret', inviteOnly: true });

    const generic = await db.factory.user(realm, { isBot: true, botOwnerId: member.id, fullName: 'Generic bot' });
    const webhook = await db.factory.user(realm, { isBot: true, botOwnerId: member.id, fullName: 'Webhook bot' });
    const embedded = await db.factory.user(realm, { isBot: true, botOwnerId: admin.id, fullName: 'Embedded bot' });
    const retired = await db.factory.user(realm, { isBot: true, botOwnerId: member.id, fullName: 'Retired bot', isActive: false });
    // A bot without an owner or an API key, joined before the others (the order is by date joined, then id).
    const keyless = await db.prisma.user.create({
      data: { realmId: realm.id, deliveryEmail: 'keyless-bot@example.test', fullName: 'Keyless bot', isBot: true, botType: 1, dateJoined: new Date('2020-01-01T00:00:00Z') },
    });
    await db.prisma.user.update({
      where: { id: generic.id },
      data: { defaultSendingStreamId: general.id, defaultEventsRegisterStreamId: secret.id, defaultAllPublicStreams: true, avatarSource: 'U', avatarVersion: 3 },
    });
    await db.prisma.user.update({ where: { id: webhook.id }, data: { botType: 3 } });
    await db.prisma.botService.create({ data: { userId: webhook.id, name: 'hook', baseUrl: 'https://hooks.example/b', token: 'tok2', interface: 2 } });
    await db.prisma.botService.create({ data: { userId: webhook.id, name: 'hook', baseUrl: 'https://hooks.example/a', token: 'tok1', interface: 1 } });
    await db.prisma.user.update({ where: { id: embedded.id }, data: { botType: 4, botConfigData: { key: 'value', other: 'x' } } });
    await db.prisma.botService.create({ data: { userId: embedded.id, name: 'converter', baseUrl: '', token: 'tok3' } });
    await db.factory.user(other, { isBot: true, fullName: 'Elsewhere bot' });

    const prismaRead = (where: Prisma.UserWhereInput, tx: Prisma.TransactionClient = db.prisma) =>
      tx.user.findMany({
        where: { realmId: realm.id, isBot: true, ...where },
        include: { apiKey: { select: { key: true } }, botServices: { orderBy: { id: 'asc' } } },
        orderBy: [{ dateJoined: 'asc' }, { id: 'asc' }],
      });

    // An administrator's `realm_bots`: every bot, deactivated ones included.
    const every = await prismaRead({});
    expect(every.map((bot) => bot.id)).toStrictEqual([keyless.id, generic.id, webhook.id, embedded.id, retired.id]);
    expect(every[0].apiKey).toBeNull();
    expect(every[2].botServices.map((service) => service.token)).toStrictEqual(['tok2', 'tok1']);
    expect(await bots.withDetails(realm.id, {})).toStrictEqual(every);

    // A member's: the bots they own.
    const owned = await prismaRead({ botOwnerId: member.id });
    expect(owned.map((bot) => bot.id)).toStrictEqual([generic.id, webhook.id, retired.id]);
    expect(await bots.withDetails(realm.id, { ownerId: member.id })).toStrictEqual(owned);
    expect(await bots.withDetails(realm.id, { ownerId: owner.id })).toStrictEqual([]);

    // GET /bots, and the records of events.
    expect(await bots.withDetails(realm.id, { ownerId: member.id, activeOnly: true })).toStrictEqual(await prismaRead({ botOwnerId: member.id, isActive: true }));
    expect(await bots.withDetails(realm.id, { ids: [retired.id, embedded.id, member.id, 2 ** 40] })).toStrictEqual(
      await prismaRead({ id: { in: [retired.id, embedded.id, member.id] } }),
    );
    expect(await bots.withDetails(realm.id, { ids: [] })).toStrictEqual([]);
    expect(await inTransaction((tx) => bots.withDetails(realm.id, {}, tx))).toStrictEqual(every);
    expect(await inTransaction((tx) => bots.withDetails(realm.id, { ids: [webhook.id] }, tx))).toStrictEqual(await prismaRead({ id: { in: [webhook.id] } }));

    // The bots' default channels, by id.
    const ids = [general.id, secret.id, general.id, 2 ** 40, secret.id + 1000];
    const expected = new Map(
      (await db.prisma.stream.findMany({ where: { id: { in: [general.id, secret.id] } }, select: { id: true, name: true, inviteOnly: true } })).map((row) => [row.id, row]),
    );
    expect(expected.size).toBe(2);
    expect(await channels.byIds(ids)).toStrictEqual(expected);
    expect(await inTransaction((tx) => channels.byIds(ids, tx))).toStrictEqual(expected);
    expect(await channels.byIds([])).toStrictEqual(new Map());
  });

  it('POST /register reads all of it, every key, for a member and for an administrator, with no Prisma query', async () => {
    // Everything seeded above; any use of Prisma on the way throws.
    const noPrisma = new Proxy({} as PrismaService, {
      get: (_, property) => {
        throw new Error(`POST /register reached Prisma (${String(property)})`);
      },
    });
    const organizations = new OrganizationsRepository(noPrisma, db.pg);
    const config = { EXTERNAL_URL: 'http://chat.example', DEFAULT_ORGANIZATION: '', JITSI_SERVER_URL: 'https://meet.example', BIG_BLUE_BUTTON_URL: '', BIG_BLUE_BUTTON_SECRET: '' };
    const membership = new GroupMembershipRepository(db.pg);
    const reader = new RegisterStateReader(
      organizations,
      new UsersRepository(noPrisma, db.pg),
      new ProfileFieldsRepository(noPrisma, db.pg),
      new NavigationViewsRepository(noPrisma, db.pg),
      new CustomEmojiRepository(noPrisma, db.pg),
      new RealmDirectory(organizations, config),
      new UserGroupRecords(new UserGroupsRepository(noPrisma, db.pg, membership), membership),
      new RealmSettingsRepository(noPrisma, db.pg),
      config,
      new BotRecords(new BotsRepository(noPrisma, db.pg), new ChannelsReadonlyRepository(noPrisma, db.pg)),
    );
    const read = async (user: { id: number }, role: number, capabilities: Record<string, boolean>) => {
      const caller = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      return reader.read({
        realm: { id: realm.id, subdomain: realm.subdomain, name: realm.name, url: 'http://chat.example', host: 'chat.example' },
        user: { id: caller.id, realmId: realm.id, email: caller.deliveryEmail, deliveryEmail: caller.deliveryEmail, fullName: caller.fullName, role, isBot: false },
        fetchEventTypes: null,
        clientGravatar: false,
        includeSubscribers: false,
        capabilities,
        requestId: 'register-rows',
      });
    };

    const asAdmin = await read(admin, Role.ADMINISTRATOR, { include_deactivated_groups: true });
    const asMember = await read(member, Role.MEMBER, { user_settings_object: false });
    for (const state of [asAdmin, asMember]) {
      expect(state).toMatchObject({ realm_name: 'Test organization', user_settings: expect.any(Object), realm_user_settings_defaults: expect.any(Object) });
      expect(Object.keys(state.realm_emoji as object)).toHaveLength(4);
      expect((state.custom_profile_fields as { name: string }[]).map((field) => field.name)).toEqual(['Pronouns', 'Biography', 'Birthday', 'Team', 'Phone', 'GitHub', 'Mentor']);
      expect((state.realm_domains as { domain: string }[]).map((domain) => domain.domain)).toEqual(['zeta.example', 'alpha.example']);
    }
    expect(asAdmin.user_id).toBe(admin.id);
    expect(asMember.user_id).toBe(member.id);
    expect((asAdmin.realm_bots as unknown[]).length).toBe(5);
    expect(asMember.realm_bots).toEqual([
      expect.objectContaining({ full_name: 'Generic bot', default_sending_stream: 'general', default_events_register_stream: 'secret', owner_id: member.id }),
      expect.objectContaining({ full_name: 'Webhook bot', services: [expect.objectContaining({ token: 'tok2' }), expect.objectContaining({ token: 'tok1' })] }),
      expect.objectContaining({ full_name: 'Retired bot', is_active: false }),
    ]);
    const groupNames = (state: Record<string, unknown>) => (state.realm_user_groups as { name: string }[]).map((group) => group.name);
    expect(groupNames(asAdmin)).toContain('delta');
    expect(groupNames(asMember)).not.toContain('delta');
    expect(groupNames(asMember)).toEqual(expect.arrayContaining(['alpha', 'beta', 'gamma']));
    expect((asMember.navigation_views as unknown[]).length).toBe(3);
    expect(asAdmin.navigation_views).toEqual([{ fragment: 'inbox', is_pinned: true }]);
  });
});

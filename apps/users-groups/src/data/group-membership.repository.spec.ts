import { useTestDatabase, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { GroupMembershipRepository } from './group-membership.repository';

/** The one membership rule, against a real database: roles, nesting, anonymous values, deactivation. */
describe('GroupMembershipRepository', () => {
  const db = useTestDatabase();
  let groups: GroupMembershipRepository;
  let realm: { id: number };
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, newcomer: TestUser, guest: TestUser, gone: TestUser;
  const system = new Map<string, number>();

  beforeAll(async () => {
    groups = new GroupMembershipRepository(db.pg);
    realm = await db.factory.organization();
    owner = await db.factory.user(realm, { role: Role.OWNER });
    admin = await db.factory.user(realm, { role: Role.ADMINISTRATOR });
    moderator = await db.factory.user(realm, { role: Role.MODERATOR });
    member = await db.factory.user(realm);
    newcomer = await db.factory.user(realm);
    guest = await db.factory.user(realm, { role: Role.GUEST });
    gone = await db.factory.user(realm, { role: Role.ADMINISTRATOR, isActive: false });
    // A week-old member and a new one, with a three-day waiting period for full membership.
    await db.prisma.user.update({ where: { id: member.id }, data: { dateJoined: new Date(Date.now() - 7 * 86400_000) } });
    await db.prisma.realm.update({ where: { id: realm.id }, data: { waitingPeriodThreshold: 3 } });
    for (const name of ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet']) {
      system.set(name, await db.factory.systemGroupId(realm, name));
    }
  });

  const members = async (name: string) => (await groups.members([system.get(name)!])).get(system.get(name)!);

  it('puts users in system groups by role, each role group holding the ones above it', async () => {
    expect(await members('role:owners')).toEqual([owner.id]);
    expect(await members('role:administrators')).toEqual([owner.id, admin.id]);
    expect(await members('role:moderators')).toEqual([owner.id, admin.id, moderator.id]);
    expect(await members('role:fullmembers')).toEqual([owner.id, admin.id, moderator.id, member.id]);
    expect(await members('role:members')).toEqual([owner.id, admin.id, moderator.id, member.id, newcomer.id]);
    expect(await members('role:everyone')).toEqual([owner.id, admin.id, moderator.id, member.id, newcomer.id, guest.id]);
    expect(await members('role:internet')).toEqual(await members('role:everyone'));
    expect(await members('role:nobody')).toEqual([]);
  });

  it('leaves deactivated users out of every group, directly or not', async () => {
    expect(await groups.isMember(gone.id, system.get('role:administrators')!)).toBe(false);
    const team = await db.factory.userGroup(realm, { members: [gone, member] });
    expect((await groups.directMembers([team.id])).get(team.id)).toEqual([member.id]);
    expect(await groups.isMember(gone.id, team.id)).toBe(false);
  });

  it('follows subgroups to any depth, and answers several groups at once', async () => {
    const inner = await db.factory.userGroup(realm, { members: [guest] });
    const middle = await db.factory.userGroup(realm, { subgroupIds: [inner.id] });
    const outer = await db.factory.userGroup(realm, { subgroupIds: [middle.id, system.get('role:owners')!] });
    expect(await groups.isMember(guest.id, outer.id)).toBe(true);
    expect(await groups.isMember(owner.id, outer.id)).toBe(true);
    expect(await groups.isMember(admin.id, outer.id)).toBe(false);
    expect(await groups.groupsHolding(guest.id, [inner.id, middle.id, outer.id, system.get('role:members')!])).toEqual(
      new Set([inner.id, middle.id, outer.id]),
    );
    expect((await groups.subgroups([outer.id])).get(outer.id)).toEqual([system.get('role:owners'), inner.id, middle.id].sort((a, b) => a! - b!));
    expect((await groups.directMembers([outer.id])).get(outer.id)).toEqual([]);
  });

  it('reads setting values: a named group as its id, an anonymous one as its parts', async () => {
    const anonymous = await db.prisma.userGroup.create({
      data: {
        realmId: realm.id,
        members: { create: [{ userId: member.id }, { userId: gone.id }] },
        subgroups: { create: [{ subgroupId: system.get('role:moderators')! }] },
      },
    });
    const values = await groups.settingValues([anonymous.id, system.get('role:members')!]);
    expect(values.get(system.get('role:members')!)).toBe(system.get('role:members'));
    expect(values.get(anonymous.id)).toEqual({ direct_members: [member.id], direct_subgroups: [system.get('role:moderators')] });
    expect(await groups.isMember(admin.id, anonymous.id)).toBe(true); // through role:moderators
    expect(await groups.isMember(newcomer.id, anonymous.id)).toBe(false);
  });

  it('never crosses organizations', async () => {
    const elsewhere = await db.factory.organization();
    const stranger = await db.factory.user(elsewhere, { role: Role.OWNER });
    expect(await groups.isMember(stranger.id, system.get('role:owners')!)).toBe(false);
    expect(await groups.isMember(stranger.id, system.get('role:everyone')!)).toBe(false);
  });
});

import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type TestUser,
} from '@teamchat/testing';

interface GroupRecord {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated: boolean;
  creator_id: number | null;
  [setting: string]: unknown;
}

describe('user groups', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, other: TestUser, guest: TestUser;
  let outsider: TestUser, deactivated: TestUser;
  let system_: Map<string, number>;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const create = (user: TestUser, form: Record<string, unknown>) =>
    system.api.post('/user_groups/create', { description: '', members: [], ...form } as never, as(user));
  const list = async (user: TestUser, form: Record<string, unknown> = {}) =>
    expectSuccess(await system.api.get<{ user_groups: GroupRecord[] }>('/user_groups', form as never, as(user))).user_groups;
  const groupNamed = async (name: string) => (await list(admin, { include_deactivated_groups: true })).find((g) => g.name === name)!;
  const stored = (id: number) => system.db.userGroup.findUniqueOrThrow({ where: { id }, include: { members: true, subgroups: true } });
  let counter = 0;
  const newGroup = async (creator: TestUser, form: Record<string, unknown> = {}) => {
    const name = `team ${counter++}`;
    const body = expectSuccess(await create(creator, { name, ...form }));
    return body.group_id as number;
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'groups' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Mo Derator' });
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    deactivated = await factory.user(org.realm, { isActive: false, fullName: 'Gone Member' });
    const elsewhere = await factory.organization({ subdomain: 'groups-elsewhere' });
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    system_ = new Map(
      await Promise.all(
        ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet'].map(
          async (name) => [name, await factory.systemGroupId(org.realm, name)] as [string, number],
        ),
      ),
    );
  });
  afterAll(() => system.stop());

  describe('system groups', () => {
    it('exist in every organization, nested as Zulip nests them, with members by role', async () => {
      const groups = await list(member);
      expectMatchesOpenApi('get', '/user_groups', { result: 'success', msg: '', user_groups: groups });
      const byName = new Map(groups.filter((g) => g.is_system_group).map((g) => [g.name, g]));
      expect([...byName.keys()].sort()).toEqual(
        ['role:administrators', 'role:everyone', 'role:fullmembers', 'role:internet', 'role:members', 'role:moderators', 'role:nobody', 'role:owners'],
      );
      expect(byName.get('role:owners')!.members).toEqual([owner.id]);
      expect(byName.get('role:administrators')).toMatchObject({ members: [admin.id], direct_subgroup_ids: [system_.get('role:owners')] });
      expect(byName.get('role:moderators')).toMatchObject({ members: [moderator.id], direct_subgroup_ids: [system_.get('role:administrators')] });
      expect(byName.get('role:members')!.members).toEqual([member.id, other.id]); // the deactivated member left out
      expect(byName.get('role:everyone')).toMatchObject({ members: [guest.id], direct_subgroup_ids: [system_.get('role:members')] });
      expect(byName.get('role:internet')).toMatchObject({ members: [], direct_subgroup_ids: [system_.get('role:everyone')] });
      expect(byName.get('role:nobody')!.members).toEqual([]);
      expect(byName.get('role:owners')!.can_manage_group).toBe(system_.get('role:nobody'));
    });

    it('resolve membership recursively, following roles', async () => {
      const everyone = system_.get('role:everyone')!;
      const recursive = expectSuccess(await system.api.get(`/user_groups/${everyone}/members`, {}, as(member)));
      expectMatchesOpenApi('get', '/user_groups/{user_group_id}/members', recursive);
      expect((recursive.members as number[]).sort((a, b) => a - b)).toEqual([owner.id, admin.id, member.id, guest.id, moderator.id, other.id].sort((a, b) => a - b));
      const direct = expectSuccess(await system.api.get(`/user_groups/${everyone}/members`, { direct_member_only: true }, as(member)));
      expect(direct.members).toEqual([guest.id]);
      const admins = system_.get('role:administrators')!;
      const isOwner = expectSuccess(await system.api.get(`/user_groups/${admins}/members/${owner.id}`, {}, as(member)));
      expectMatchesOpenApi('get', '/user_groups/{user_group_id}/members/{user_id}', isOwner);
      expect(isOwner.is_user_group_member).toBe(true);
      expect(expectSuccess(await system.api.get(`/user_groups/${admins}/members/${owner.id}`, { direct_member_only: true }, as(member))).is_user_group_member).toBe(false);
      expect(expectSuccess(await system.api.get(`/user_groups/${admins}/members/${deactivated.id}`, {}, as(member))).is_user_group_member).toBe(false);
      const subgroups = expectSuccess(await system.api.get(`/user_groups/${system_.get('role:members')}/subgroups`, {}, as(member)));
      expectMatchesOpenApi('get', '/user_groups/{user_group_id}/subgroups', subgroups);
      expect(subgroups.subgroups).toEqual(['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers'].map((n) => system_.get(n)));
      const direct2 = expectSuccess(await system.api.get(`/user_groups/${system_.get('role:members')}/subgroups`, { direct_subgroup_only: true }, as(member)));
      expect(direct2.subgroups).toEqual([system_.get('role:fullmembers')]);
    });

    it('follow role changes at once', async () => {
      const promoted = await factory.user({ id: realmId }, { fullName: 'Soon Admin' });
      const admins = system_.get('role:administrators')!;
      expect(expectSuccess(await system.api.get(`/user_groups/${admins}/members/${promoted.id}`, {}, as(member))).is_user_group_member).toBe(false);
      await system.db.user.update({ where: { id: promoted.id }, data: { role: Role.ADMINISTRATOR } });
      expect(expectSuccess(await system.api.get(`/user_groups/${admins}/members/${promoted.id}`, {}, as(member))).is_user_group_member).toBe(true);
      await system.db.user.update({ where: { id: promoted.id }, data: { isActive: false } });
    });

    it('cannot be changed through the API', async () => {
      const members = system_.get('role:members')!;
      expectError(await system.api.patch(`/user_groups/${members}`, { name: 'renamed' }, as(owner)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.post(`/user_groups/${members}/members`, { add: [guest.id] }, as(owner)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.post(`/user_groups/${members}/deactivate`, {}, as(owner)), 400, 'BAD_REQUEST', 'Insufficient permission');
    });
  });

  describe('POST /user_groups/create', () => {
    it('creates a group with Zulip’s default permissions and tells the organization', async () => {
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['user_group'] });
      const res = await create(member, { name: 'frontend', description: 'The frontend team', members: [member.id, other.id] });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/user_groups/create', body);
      const group = await groupNamed('frontend');
      expect(group).toMatchObject({
        id: body.group_id,
        description: 'The frontend team',
        members: [member.id, other.id],
        direct_subgroup_ids: [],
        is_system_group: false,
        deactivated: false,
        creator_id: member.id,
        can_add_members_group: { direct_members: [member.id], direct_subgroups: [] },
        can_manage_group: { direct_members: [member.id], direct_subgroups: [] },
        can_join_group: system_.get('role:nobody'),
        can_leave_group: system_.get('role:everyone'),
        can_mention_group: system_.get('role:everyone'),
        can_remove_members_group: system_.get('role:nobody'),
      });
      const [event] = await queue.waitFor('user_group');
      expect(event).toMatchObject({ type: 'user_group', op: 'add', group: { ...group } });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: [event] });
    });

    it('takes subgroups and setting values, storing one-subgroup and empty values as named groups', async () => {
      const base = await newGroup(admin);
      const id = await newGroup(admin, {
        members: [other.id],
        subgroups: [base, system_.get('role:moderators')],
        can_manage_group: { direct_members: [], direct_subgroups: [system_.get('role:administrators')] },
        can_join_group: { direct_members: [], direct_subgroups: [] },
        can_add_members_group: { direct_members: [member.id], direct_subgroups: [base] },
        can_mention_group: system_.get('role:members'),
      });
      const group = (await list(admin)).find((g) => g.id === id)!;
      expect(group).toMatchObject({
        direct_subgroup_ids: [system_.get('role:moderators'), base].sort((a, b) => a! - b!),
        can_manage_group: system_.get('role:administrators'),
        can_join_group: system_.get('role:nobody'),
        can_add_members_group: { direct_members: [member.id], direct_subgroups: [base] },
        can_mention_group: system_.get('role:members'),
      });
    });

    it('refuses bad names, unknown members and groups, and refused setting values, creating nothing', async () => {
      const before = await system.db.userGroup.count();
      expectError(await create(member, { name: '   ' }), 400, 'BAD_REQUEST', "User group name can't be empty!");
      expectError(await create(member, { name: 'x'.repeat(101) }), 400, 'BAD_REQUEST', 'User group name cannot exceed 100 characters.');
      for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
        expectError(await create(member, { name: `${prefix}team` }), 400, 'BAD_REQUEST', `User group name cannot start with '${prefix}'.`);
      }
      expectError(await create(member, { name: 'frontend' }), 400, 'BAD_REQUEST', "User group 'frontend' already exists.");
      expectError(await create(member, { name: 'new one', members: [999999] }), 400, 'BAD_REQUEST', 'Invalid user ID: 999999');
      expectError(await create(member, { name: 'new one', members: [deactivated.id] }), 400, 'BAD_REQUEST', `Invalid user ID: ${deactivated.id}`);
      expectError(await create(member, { name: 'new one', members: [outsider.id] }), 400, 'BAD_REQUEST', `Invalid user ID: ${outsider.id}`);
      expectError(await create(member, { name: 'new one', subgroups: [999999] }), 400, 'BAD_REQUEST', 'Invalid user group ID: 999999');
      expectError(
        await create(member, { name: 'new one', can_manage_group: system_.get('role:internet') }),
        400,
        'BAD_REQUEST',
        "'can_manage_group' setting cannot be set to 'role:internet' group.",
      );
      expectError(
        await create(member, { name: 'new one', can_manage_group: system_.get('role:everyone') }),
        400,
        'BAD_REQUEST',
        "'can_manage_group' setting cannot be set to 'role:everyone' group.",
      );
      expectError(
        await create(member, { name: 'new one', can_mention_group: system_.get('role:owners') }),
        400,
        'BAD_REQUEST',
        "'can_mention_group' setting cannot be set to 'role:owners' group.",
      );
      expectError(await create(member, { name: 'new one', can_leave_group: 999999 }), 400, 'BAD_REQUEST', 'Invalid user group');
      expectError(await create(member, { name: 'new one', members: 'nope' }), 400, 'BAD_REQUEST', 'members is not valid JSON');
      expectError(await system.api.post('/user_groups/create', { name: 'x', description: '' }, as(member)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'members' argument", {
        var_name: 'members',
      });
      expect(await system.db.userGroup.count()).toBe(before);
    });

    it('is for those the organization’s can_create_groups allows (not guests)', async () => {
      expectError(await create(guest, { name: 'guests' }), 400, 'BAD_REQUEST', 'Insufficient permission');
      await system.db.realm.update({ where: { id: realmId }, data: { canCreateGroupsId: system_.get('role:moderators') } });
      try {
        expectError(await create(member, { name: 'members only' }), 400, 'BAD_REQUEST', 'Insufficient permission');
        await newGroup(moderator);
        await newGroup(owner); // owners manage all groups
      } finally {
        await system.db.realm.update({ where: { id: realmId }, data: { canCreateGroupsId: system_.get('role:members') } });
      }
    });

    it('refuses callers who are not in the organization', async () => {
      await expectCallersRefused((options) => system.api.post('/user_groups/create', { name: 'z', description: '', members: [] }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('PATCH /user_groups/{id}', () => {
    it('changes name, description and settings for those who manage the group, one event per property', async () => {
      const id = await newGroup(member);
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['user_group'] });
      const res = await system.api.patch(
        `/user_groups/${id}`,
        {
          name: 'renamed team',
          description: 'new words',
          can_join_group: { new: system_.get('role:members'), old: system_.get('role:nobody') },
          can_manage_group: { new: { direct_members: [member.id, other.id], direct_subgroups: [] } },
        },
        as(member),
      );
      expectMatchesOpenApi('patch', '/user_groups/{user_group_id}', expectSuccess(res));
      const group = (await list(member)).find((g) => g.id === id)!;
      expect(group).toMatchObject({
        name: 'renamed team',
        description: 'new words',
        can_join_group: system_.get('role:members'),
        can_manage_group: { direct_members: [member.id, other.id], direct_subgroups: [] },
      });
      const events = await queue.waitFor('user_group', 4);
      expect(events.map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'user_group', op: 'update', group_id: id, data: { name: 'renamed team' } },
        { type: 'user_group', op: 'update', group_id: id, data: { description: 'new words' } },
        { type: 'user_group', op: 'update', group_id: id, data: { can_join_group: system_.get('role:members') } },
        { type: 'user_group', op: 'update', group_id: id, data: { can_manage_group: { direct_members: [member.id, other.id], direct_subgroups: [] } } },
      ]);
      // The anonymous value was rewritten in place: no orphan groups pile up.
      const managers = (await stored(id)).canManageGroupId!;
      await system.api.patch(`/user_groups/${id}`, { can_manage_group: { new: { direct_members: [other.id], direct_subgroups: [] } } }, as(member));
      expect((await stored(id)).canManageGroupId).toBe(managers);
    });

    it('answers EXPECTATION_MISMATCH when `old` is not the current value, changing nothing', async () => {
      const id = await newGroup(member);
      const before = await stored(id);
      expectError(
        await system.api.patch(
          `/user_groups/${id}`,
          { description: 'changed?', can_join_group: { new: system_.get('role:members'), old: system_.get('role:everyone') } },
          as(member),
        ),
        400,
        'EXPECTATION_MISMATCH',
        "'old' value does not match the expected value.",
      );
      expect(await stored(id)).toEqual(before);
    });

    it('refuses those who may not manage it, and bad input', async () => {
      const id = await newGroup(member);
      expectError(await system.api.patch(`/user_groups/${id}`, { name: 'mine now' }, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.patch(`/user_groups/${id}`, { name: 'guest' }, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectSuccess(await system.api.patch(`/user_groups/${id}`, { description: 'owners manage all groups' }, as(owner)));
      expectError(await system.api.patch(`/user_groups/${id}`, {}, as(member)), 400, 'BAD_REQUEST', 'No new data supplied');
      expectError(await system.api.patch(`/user_groups/999999`, { name: 'x' }, as(member)), 400, 'BAD_REQUEST', 'Invalid user group');
      expectError(await system.api.patch(`/user_groups/${id}`, { name: 'frontend' }, as(member)), 400, 'BAD_REQUEST', "User group 'frontend' already exists.");
      expectError(
        await system.api.patch(`/user_groups/${id}`, { can_manage_group: { old: 1 } }, as(member)),
        400,
        'BAD_REQUEST',
        expect.stringContaining('can_manage_group') as unknown as string,
      );
      const outsiderGroup = await factory.userGroup({ id: outsider.realmId });
      expectError(await system.api.patch(`/user_groups/${outsiderGroup.id}`, { name: 'x' }, as(owner)), 400, 'BAD_REQUEST', 'Invalid user group');
      await expectCallersRefused((options) => system.api.patch(`/user_groups/${id}`, { name: 'z' }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('deactivation', () => {
    it('deactivates an unused group; clients with include_deactivated_groups see an update, others a removal; PATCH deactivated=false reactivates', async () => {
      const id = await newGroup(member, { members: [member.id] });
      const modern = await EventQueueClient.register(system.api, as(other), {
        event_types: ['user_group'],
        client_capabilities: { include_deactivated_groups: true },
      });
      const legacy = await EventQueueClient.register(system.api, as(other), { event_types: ['user_group'] });
      expectMatchesOpenApi('post', '/user_groups/{user_group_id}/deactivate', expectSuccess(await system.api.post(`/user_groups/${id}/deactivate`, {}, as(member))));
      expect((await list(member)).some((g) => g.id === id)).toBe(false);
      expect((await list(member, { include_deactivated_groups: true })).find((g) => g.id === id)!.deactivated).toBe(true);
      expect((await modern.waitFor('user_group'))[0]).toMatchObject({ op: 'update', group_id: id, data: { deactivated: true } });
      expect((await legacy.waitFor('user_group'))[0]).toMatchObject({ op: 'remove', group_id: id });

      // A deactivated group can't be used in a setting or as a subgroup, nor deactivated again.
      expectError(await create(member, { name: 'uses it', can_mention_group: id }), 400, 'BAD_REQUEST', 'User group is deactivated.');
      expectError(await create(member, { name: 'uses it', subgroups: [id] }), 400, 'BAD_REQUEST', 'User group is deactivated.');
      expectError(await system.api.post(`/user_groups/${id}/deactivate`, {}, as(member)), 400, 'BAD_REQUEST', 'User group is deactivated.');
      // …but its name and membership can still change.
      expectSuccess(await system.api.patch(`/user_groups/${id}`, { description: 'resting' }, as(member)));

      expectSuccess(await system.api.patch(`/user_groups/${id}`, { deactivated: false }, as(member)));
      expect((await list(member)).find((g) => g.id === id)!.deactivated).toBe(false);
      expect((await modern.waitFor('user_group', 3))[2]).toMatchObject({ op: 'update', group_id: id, data: { deactivated: false } });
      const added = (await legacy.waitFor('user_group', 3))[2];
      expect(added).toMatchObject({ op: 'add', group: { id, deactivated: false, description: 'resting', members: [member.id] } });
      for (const queue of [modern, legacy]) {
        expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: queue.received });
      }
    });

    it('refuses a group in use, naming every use, and changes nothing', async () => {
      const used = await newGroup(admin);
      const parent = await newGroup(admin, { subgroups: [used] });
      const user = await newGroup(admin, { can_mention_group: used, can_join_group: { direct_members: [member.id], direct_subgroups: [used] } });
      await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: used } });
      try {
        expectError(await system.api.post(`/user_groups/${used}/deactivate`, {}, as(admin)), 400, 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', {
          objections: [
            { type: 'subgroup', supergroup_ids: [parent] },
            { type: 'user_group', group_id: user, settings: ['can_join_group', 'can_mention_group'] },
            { type: 'realm', settings: ['can_mention_many_users_group'] },
          ],
        });
        expect((await stored(used)).deactivated).toBe(false);
      } finally {
        await system.db.realm.update({ where: { id: realmId }, data: { canMentionManyUsersGroupId: system_.get('role:administrators') } });
      }
    });
  });

  describe('members and subgroups', () => {
    it('lets the manager add and remove members, announcing each change', async () => {
      const id = await newGroup(member);
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['user_group'] });
      const res = await system.api.post(`/user_groups/${id}/members`, { add: [other.id, moderator.id] }, as(member));
      expectMatchesOpenApi('post', '/user_groups/{user_group_id}/members', expectSuccess(res));
      expectSuccess(await system.api.post(`/user_groups/${id}/members`, { delete: [moderator.id] }, as(member)));
      expect((await stored(id)).members.map((m) => m.userId)).toEqual([other.id]);
      const events = await queue.waitFor('user_group', 2);
      expect(events.map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'user_group', op: 'add_members', group_id: id, user_ids: [other.id, moderator.id] },
        { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [moderator.id] },
      ]);
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: queue.received });
      const direct = expectSuccess(await system.api.get(`/user_groups/${id}/members`, { direct_member_only: true }, as(other)));
      expect(direct.members).toEqual([other.id]);
    });

    it('decides joining, leaving, adding and removing by the group’s settings', async () => {
      const id = await newGroup(admin, { members: [member.id] });
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [other.id] }, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      await system.api.patch(`/user_groups/${id}`, { can_join_group: { new: system_.get('role:members') } }, as(admin));
      expectSuccess(await system.api.post(`/user_groups/${id}/members`, { add: [other.id] }, as(other)));
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [moderator.id] }, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      // Everyone may leave by default; removing someone else needs can_remove_members_group.
      expectError(await system.api.post(`/user_groups/${id}/members`, { delete: [member.id] }, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectSuccess(await system.api.post(`/user_groups/${id}/members`, { delete: [other.id] }, as(other)));
      await system.api.patch(`/user_groups/${id}`, { can_leave_group: { new: system_.get('role:nobody') } }, as(admin));
      expectError(await system.api.post(`/user_groups/${id}/members`, { delete: [member.id] }, as(member)), 400, 'BAD_REQUEST', 'Insufficient permission');
      // A guest never adds others, even when the setting's group holds them.
      await system.api.patch(`/user_groups/${id}`, { can_add_members_group: { new: { direct_members: [guest.id], direct_subgroups: [] } } }, as(admin));
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [other.id] }, as(guest)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect((await stored(id)).members.map((m) => m.userId)).toEqual([member.id]);
    });

    it('refuses bad member changes with Zulip’s texts, changing nothing', async () => {
      const id = await newGroup(member, { members: [member.id] });
      expectError(await system.api.post(`/user_groups/${id}/members`, {}, as(member)), 400, 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [member.id] }, as(member)), 400, 'BAD_REQUEST', `User ${member.id} is already a member of this group`);
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [deactivated.id] }, as(member)), 400, 'BAD_REQUEST', `Invalid user ID: ${deactivated.id}`);
      expectError(await system.api.post(`/user_groups/${id}/members`, { delete: [other.id] }, as(member)), 400, 'BAD_REQUEST', `There is no member '${other.id}' in this user group`);
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: [other.id, 2 ** 40] }, as(member)), 400, 'BAD_REQUEST', `Invalid user ID: ${2 ** 40}`);
      expectError(await system.api.post(`/user_groups/${id}/members`, { add: '[1,' }, as(member)), 400, 'BAD_REQUEST', 'add is not valid JSON');
      expect((await stored(id)).members.map((m) => m.userId)).toEqual([member.id]);
      await expectCallersRefused((options) => system.api.post(`/user_groups/${id}/members`, { add: [other.id] }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });

    it('adds and removes subgroups, never making a cycle', async () => {
      const top = await newGroup(member);
      const middle = await newGroup(member);
      const bottom = await newGroup(member);
      const queue = await EventQueueClient.register(system.api, as(other), { event_types: ['user_group'] });
      const res = await system.api.post(`/user_groups/${top}/subgroups`, { add: [middle] }, as(member));
      expectMatchesOpenApi('post', '/user_groups/{user_group_id}/subgroups', expectSuccess(res));
      expectSuccess(await system.api.post(`/user_groups/${middle}/members`, { add_subgroups: [bottom] }, as(member)));
      expect((await queue.waitFor('user_group', 2)).map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'user_group', op: 'add_subgroups', group_id: top, direct_subgroup_ids: [middle] },
        { type: 'user_group', op: 'add_subgroups', group_id: middle, direct_subgroup_ids: [bottom] },
      ]);
      expect(expectSuccess(await system.api.get(`/user_groups/${top}/subgroups`, {}, as(member))).subgroups).toEqual([middle, bottom]);
      expectError(await system.api.post(`/user_groups/${bottom}/subgroups`, { add: [top] }, as(member)), 400, 'BAD_REQUEST', `User group ${bottom} is already a subgroup of one of the passed subgroups.`);
      expectError(await system.api.post(`/user_groups/${top}/subgroups`, { add: [top] }, as(member)), 400, 'BAD_REQUEST', `User group ${top} is already a subgroup of one of the passed subgroups.`);
      expectError(await system.api.post(`/user_groups/${top}/subgroups`, { add: [middle] }, as(member)), 400, 'BAD_REQUEST', `User group ${middle} is already a subgroup of this group.`);
      expectError(await system.api.post(`/user_groups/${top}/subgroups`, { delete: [bottom] }, as(member)), 400, 'BAD_REQUEST', `User group ${bottom} is not a subgroup of this group.`);
      expectError(await system.api.post(`/user_groups/${top}/subgroups`, {}, as(member)), 400, 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
      expectSuccess(await system.api.post(`/user_groups/${top}/subgroups`, { delete: [middle] }, as(member)));
      expect(expectSuccess(await system.api.get(`/user_groups/${top}/subgroups`, {}, as(member))).subgroups).toEqual([]);
      // Members of subgroups are members.
      await system.api.post(`/user_groups/${bottom}/members`, { add: [guest.id] }, as(member));
      expect(expectSuccess(await system.api.get(`/user_groups/${middle}/members/${guest.id}`, {}, as(member))).is_user_group_member).toBe(true);
    });
  });

  describe('reads', () => {
    it('are not for guests or bots, nor for other organizations', async () => {
      expectError(await system.api.get('/user_groups', {}, as(guest)), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      const members = system_.get('role:members')!;
      expectError(await system.api.get(`/user_groups/${members}/members`, {}, as(guest)), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      const bot = await factory.user({ id: realmId }, { isBot: true, botOwnerId: member.id });
      expectError(await system.api.get('/user_groups', {}, as(bot)), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      const foreign = await factory.systemGroupId({ id: outsider.realmId }, 'role:members');
      expectError(await system.api.get(`/user_groups/${foreign}/members`, {}, as(member)), 400, 'BAD_REQUEST', 'Invalid user group');
      expectError(await system.api.get(`/user_groups/${members}/members/999999`, {}, as(member)), 400, 'BAD_REQUEST', 'No such user');
      await expectCallersRefused((options) => system.api.get('/user_groups', {}, options), { subdomain, member, outsider, deactivated });
    });

    it('are in POST /register as realm_user_groups, with the organization’s group permissions', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { fetch_event_types: ['realm_user_groups', 'realm'] });
      const groups = queue.state.realm_user_groups as GroupRecord[];
      expect(groups).toEqual(await list(member));
      expect(queue.state).toMatchObject({
        realm_can_create_groups: system_.get('role:members'),
        realm_can_manage_all_groups: system_.get('role:owners'),
        realm_can_mention_many_users_group: system_.get('role:administrators'),
        realm_waiting_period_threshold: 0,
      });
    });
  });
});

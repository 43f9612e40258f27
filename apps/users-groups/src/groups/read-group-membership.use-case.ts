import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { checkMemberOrAdmin } from './member-or-admin';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository } from '../data/users.repository';
import { UserGroupRecords } from './user-group-records';

/**
 * The three membership reads (zerver/views/user_groups.py): a group's members, whether a user
 * is one, and its subgroups; each through subgroups unless asked for direct ones only.
 */
@Injectable()
export class ReadGroupMembership {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly store: UserGroupRecords,
    private readonly membership: GroupMembershipRepository,
  ) {}

  async members({ realm, user, params }: UserCommand<DecodedParams<typeof UsersGroups.getUserGroupMembersParams>>) {
    checkMemberOrAdmin(user);
    const group = await this.store.named(realm.id, params.user_group_id);
    const members = params.direct_member_only ? await this.membership.directMembers([group.id]) : await this.membership.members([group.id]);
    return { members: members.get(group.id) ?? [] };
  }

  async isMember({ realm, user, params }: UserCommand<DecodedParams<typeof UsersGroups.getIsUserGroupMemberParams>>) {
    checkMemberOrAdmin(user);
    const group = await this.store.named(realm.id, params.user_group_id);
    if (!(await this.users.existsInRealm(realm.id, params.user_id))) throw badRequest('No such user');
    if (!params.direct_member_only) return { is_user_group_member: await this.membership.isMember(params.user_id, group.id) };
    const direct = await this.membership.directMembers([group.id]);
    return { is_user_group_member: (direct.get(group.id) ?? []).includes(params.user_id) };
  }

  async subgroups({ realm, user, params }: UserCommand<DecodedParams<typeof UsersGroups.getUserGroupSubgroupsParams>>) {
    checkMemberOrAdmin(user);
    const group = await this.store.named(realm.id, params.user_group_id);
    if (params.direct_subgroup_only) {
      return { subgroups: await this.groups.directSubgroupIds(group.id) };
    }
    return { subgroups: (await this.membership.subgroups([group.id])).get(group.id) ?? [] };
  }
}

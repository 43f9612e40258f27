import { Injectable } from '@nestjs/common';
import { badRequest } from '@teamchat/zulip';
import type { Transaction } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository } from '../data/users.repository';

/** The checks of what a group (or a setting's anonymous group) is made of, before it is written. */
@Injectable()
export class GroupParts {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
  ) {}

  /** Users to make members (of a group or a setting's anonymous group): active users of the organization. */
  async checkActiveUsers(realmId: number, userIds: number[], tx?: Transaction): Promise<void> {
    if (userIds.length === 0) return;
    const found = await this.users.activeIdsAmong(realmId, userIds, tx);
    const missing = userIds.find((id) => !found.includes(id));
    if (missing !== undefined) throw badRequest(`Invalid user ID: ${missing}`);
  }

  /** Groups to make subgroups (of a group or a setting's anonymous group): named, active groups of the organization. */
  async checkSubgroups(realmId: number, subgroupIds: number[], tx?: Transaction): Promise<void> {
    if (subgroupIds.length === 0) return;
    const groups = await this.groups.namedAmong(realmId, subgroupIds, tx);
    const missing = subgroupIds.find((id) => !groups.some((group) => group.id === id));
    if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
    if (groups.some((group) => group.deactivated)) throw badRequest('User group is deactivated.');
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UserGroupRecord, UsersGroups } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { checkMemberOrAdmin } from './member-or-admin';
import { UserGroupRecords } from './user-group-records';

type Params = DecodedParams<typeof UsersGroups.listUserGroupsParams>;

/** GET /user_groups: the organization's named groups, deactivated ones only when asked. */
@Injectable()
export class ListUserGroups {
  constructor(private readonly store: UserGroupRecords) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ user_groups: UserGroupRecord[] }> {
    checkMemberOrAdmin(user);
    return { user_groups: await this.store.records(realm.id, { includeDeactivated: params.include_deactivated_groups }) };
  }
}

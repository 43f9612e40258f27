import { Injectable } from '@nestjs/common';
import { GroupMembership, PgService, queryableOf, type SettingValue } from '@teamchat/db';
import { groupsNamed } from './groups.readonly.sql';
import type { ColdTx } from './transactions';

export interface NamedGroup {
  id: number;
  name: string;
  deactivated: boolean;
  canMentionGroupId: number | null;
}

/**
 * READ-ONLY view of users-groups' `user_groups`, for mentions. (Membership itself is decided
 * by GroupMembership, the one rule every service shares.)
 */
@Injectable()
export class GroupsReadonlyRepository {
  constructor(
    private readonly pg: PgService,
    private readonly membership: GroupMembership,
  ) {}

  /** The organization's named groups with these names, deactivated ones too. */
  async named(realmId: number, names: string[]): Promise<NamedGroup[]> {
    return names.length === 0 ? [] : this.pg.run(groupsNamed, realmId, names);
  }

  /**
   * The group-setting value of each group a setting points at (a named group's id, or an
   * anonymous group's active direct members and direct subgroups); `tx`: a transaction that
   * created some of them.
   */
  settingValues(groupIds: number[], tx?: ColdTx): Promise<Map<number, SettingValue>> {
    return this.membership.settingValues(groupIds, tx ? queryableOf(tx) : undefined);
  }
}

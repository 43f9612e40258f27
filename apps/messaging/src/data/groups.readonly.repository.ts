import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { groupsNamed } from './groups.readonly.sql';

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
  constructor(private readonly pg: PgService) {}

  /** The organization's named groups with these names, deactivated ones too. */
  async named(realmId: number, names: string[]): Promise<NamedGroup[]> {
    return names.length === 0 ? [] : this.pg.run(groupsNamed, realmId, names);
  }
}

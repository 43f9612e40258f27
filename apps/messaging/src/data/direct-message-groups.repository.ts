import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { createDirectMessageGroup, directMessageGroupByKey, directMessageGroups } from './direct-message-groups.sql';

/** `direct_message_groups`, which messaging owns: the set of people of each direct conversation. */
@Injectable()
export class DirectMessageGroupsRepository {
  constructor(private readonly pg: PgService) {}

  /** Groups by id, with their members. */
  async byIds(groupIds: number[]): Promise<{ id: number; memberIds: number[] }[]> {
    return groupIds.length === 0 ? [] : this.pg.run(directMessageGroups, groupIds);
  }

  /** The group of a set of people (their sorted ids, comma-joined), if it exists. */
  async idByKey(realmId: number, memberKey: string): Promise<number | null> {
    return (await this.pg.run(directMessageGroupByKey, realmId, memberKey))[0]?.id ?? null;
  }

  /**
   * The group of these people (sorted ids), found (usually) or created; if a concurrent send
   * created it first, found on a second look.
   */
  async findOrCreate(realmId: number, members: number[]): Promise<number> {
    const memberKey = members.join(',');
    const group =
      (await this.pg.run(directMessageGroupByKey, realmId, memberKey))[0] ??
      (await this.pg.run(createDirectMessageGroup, realmId, memberKey, members))[0] ??
      (await this.pg.run(directMessageGroupByKey, realmId, memberKey))[0];
    return group.id;
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroupsEvents, type UserGroupRecord } from '@teamchat/contracts';
import type { OutboxEvent } from '@teamchat/db';
import { UsersRepository } from '../data/users.repository';

export interface UserGroupEvent {
  event: { type: 'user_group'; op: string } & Record<string, unknown>;
  /** With a reactivation: the record, for queues that were told the group was removed. */
  group?: UserGroupRecord;
}

/**
 * `user_group` events for every active user of the organization, as Zulip sends them: read the
 * audience before the change's transaction, build the events inside it (written with the
 * change through the outbox).
 */
@Injectable()
export class UserGroupEvents {
  constructor(private readonly users: UsersRepository) {}

  /** Who hears of a group change: every active user of the organization. */
  audience(realmId: number): Promise<number[]> {
    return this.users.activeIdsOfRealm(realmId);
  }

  build(realmId: number, users: number[], events: UserGroupEvent[]): OutboxEvent[] {
    return events.map(({ event, group }) => ({
      def: UsersGroupsEvents.userGroupChanged,
      payload: { realmId, users, event, ...(group ? { group } : {}) },
    }));
  }
}

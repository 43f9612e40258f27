import { Injectable } from '@nestjs/common';
import { UsersGroupsEvents, type UserGroupRecord } from '@teamchat/contracts';
import { UsersRepository } from '../data/users.repository';
import { EventBus } from '@teamchat/platform';

export interface UserGroupEvent {
  event: { type: 'user_group'; op: string } & Record<string, unknown>;
  /** With a reactivation: the record, for queues that were told the group was removed. */
  group?: UserGroupRecord;
}

/** Announces `user_group` events to every active user of the organization, as Zulip does. */
@Injectable()
export class UserGroupEvents {
  constructor(
    private readonly users: UsersRepository,
    private readonly events: EventBus,
  ) {}

  async publish(realmId: number, events: UserGroupEvent[], requestId?: string): Promise<void> {
    if (events.length === 0) return;
    const users = await this.users.activeIdsOfRealm(realmId);
    await this.events.publishAll(
      events.map(({ event, group }) => ({
        def: UsersGroupsEvents.userGroupChanged,
        payload: { realmId, users, event, ...(group ? { group } : {}) },
      })),
      requestId,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { EventOutbox, type OutboxEvent } from '@teamchat/db';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import type { Transaction } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { profileFieldsEvent } from './profile-field-rules';

export { isUniqueViolation } from '../data/unique-violation';

/**
 * notify_realm_custom_profile_fields: every active user gets the organization's whole list,
 * written with the change that caused it (the list read through its transaction).
 */
@Injectable()
export class AnnounceProfileFields {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  /** Who hears of the fields: every active user (read before the transaction). */
  audience(realmId: number): Promise<number[]> {
    return this.users.activeIdsOfRealm(realmId);
  }

  /**
   * `change` in a transaction, with the events it answers (`before`) and then the whole list,
   * committed together.
   */
  async change<T>(realmId: number, change: (tx: Transaction, audience: number[]) => Promise<{ value: T; before?: OutboxEvent[] }>, requestId: string): Promise<T> {
    const audience = await this.audience(realmId);
    return this.outbox.runCold(async (tx) => {
      const { value, before = [] } = await change(tx, audience);
      return { value, events: [...before, profileFieldsEvent(realmId, audience, await this.fields.ofRealm(realmId, tx))] };
    }, requestId);
  }
}

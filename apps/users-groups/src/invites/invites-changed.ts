import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { EventOutbox, type OutboxEvent } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import type { Transaction } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';

/**
 * Zulip's notify_invites_changed: `invites_changed` to the organization's administrators (bots
 * included, as get_admin_users_and_bots) and the changed invitation's creator.
 */
@Injectable()
export class InvitesChanged {
  constructor(
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  /** `change` in a transaction with the event, committed together (the audience read before). */
  async change<T>(realmId: number, referrerId: number | null, change: (tx: Transaction) => Promise<T>, requestId: string): Promise<T> {
    const event = await this.event(realmId, referrerId);
    return this.outbox.runCold(async (tx) => ({ value: await change(tx), events: [event] }), requestId);
  }

  /**
   * The event, its audience read through `tx` when given: a change that also makes an account
   * (a sign-up) reads it after the account exists, in its own transaction.
   */
  async event(realmId: number, referrerId: number | null, tx?: Transaction): Promise<OutboxEvent> {
    const active = await this.users.activeOfRealm(realmId, tx);
    const recipients = active.filter((user) => user.role <= Role.ADMINISTRATOR).map((user) => user.id);
    if (referrerId !== null && !recipients.includes(referrerId) && active.some((user) => user.id === referrerId)) recipients.push(referrerId);
    return { def: UsersGroups.InviteEvents.invitesChanged, payload: { realmId, users: recipients, event: { type: 'invites_changed' } } };
  }
}

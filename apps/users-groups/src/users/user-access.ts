import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import type { PgTransaction, Transaction } from '../data/transactions';
import { UserAccessReadonlyRepository } from '../data/user-access.readonly.repository';
import { UsersRepository } from '../data/users.repository';

/**
 * Zulip's can_access_all_users_group (zerver/lib/users.py check_user_can_access_all_users):
 * set to role:members, a guest sees only the people they share a channel or a direct-message
 * conversation with, bots and themselves. The one rule for who is hidden from whom: GET /users
 * leaves the others out, GET /users/{id} refuses them, POST /register shows them as "Unknown
 * user" (or leaves them out for clients with `user_list_incomplete`), and their `realm_user`
 * updates do not reach the guest.
 */
@Injectable()
export class UserAccess {
  constructor(
    private readonly access: UserAccessReadonlyRepository,
    private readonly users: UsersRepository,
  ) {}

  /**
   * Who hears of a change to this user: the organization's active users it is not hidden from
   * (see `seeing`), as `tx` sees them (a reactivation's own transaction sees the user active).
   */
  async audienceOf(realmId: number, userId: number, tx?: PgTransaction | Transaction): Promise<{ id: number; role: number }[]> {
    return this.seeing(realmId, userId, await this.users.activeOfRealm(realmId, tx), tx);
  }

  /**
   * Of `recipients`, those `userId` is not hidden from: a change to a user is announced only to
   * them (Zulip sends a person's `realm_user` updates to get_user_ids_who_can_access_user).
   */
  async seeing<R extends number | { id: number }>(realmId: number, userId: number, recipients: R[], tx?: PgTransaction | Transaction): Promise<R[]> {
    const blind = await this.guestsNotSeeing(realmId, userId, tx);
    return blind.size === 0 ? recipients : recipients.filter((recipient) => !blind.has(typeof recipient === 'number' ? recipient : recipient.id));
  }

  /** The organization's active guests this user is hidden from (`tx`: as a transaction that made the user sees it). */
  async guestsNotSeeing(realmId: number, userId: number, tx?: PgTransaction | Transaction): Promise<Set<number>> {
    return new Set(await this.access.guestsNotSeeing(realmId, userId, tx));
  }

  /**
   * The users hidden from the viewer (among `among`, when given: asked about a few, the statement
   * reads only those): none from members and above, nor from spectators (as in Zulip).
   */
  async hiddenFrom(realmId: number, viewer: Pick<AuthUser, 'id' | 'role'> | null, among?: number[]): Promise<Set<number>> {
    if (!viewer || viewer.role !== Role.GUEST) return new Set();
    return new Set(await this.access.hiddenFrom(realmId, viewer.id, among));
  }
}

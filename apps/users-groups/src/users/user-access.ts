import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import { UserAccessReadonlyRepository } from '../data/user-access.readonly.repository';

/**
 * Zulip's can_access_all_users_group (zerver/lib/users.py check_user_can_access_all_users):
 * set to role:members, a guest sees only the people they share a channel or a direct-message
 * conversation with, bots and themselves. The one rule for who is hidden from whom: GET /users
 * leaves the others out, GET /users/{id} refuses them, and POST /register shows them as
 * "Unknown user" (or leaves them out for clients with `user_list_incomplete`).
 */
@Injectable()
export class UserAccess {
  constructor(private readonly access: UserAccessReadonlyRepository) {}

  /** The users hidden from the viewer: none from members and above, nor from spectators (as in Zulip). */
  async hiddenFrom(realmId: number, viewer: Pick<AuthUser, 'id' | 'role'> | null): Promise<Set<number>> {
    if (!viewer || viewer.role !== Role.GUEST) return new Set();
    return new Set(await this.access.hiddenFrom(realmId, viewer.id));
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import { DeactivateUser } from './deactivate-user.use-case';

/** Zulip's CannotDeactivateLastUserError: the organization's only active user, or only owner. */
const cannotDeactivateLast = (isLastOwner: boolean) => {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ZulipError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}`, { is_last_owner: isLastOwner, entity });
};

/**
 * DELETE /users/me (zerver/views/users.py deactivate_user_own_backend): the caller deactivates
 * their own account, with the rule and events of DELETE /users/{user_id}; the last active user
 * and the last owner are refused with CANNOT_DEACTIVATE_LAST_USER.
 */
@Injectable()
export class DeactivateOwnUser {
  constructor(private readonly deactivation: DeactivateUser) {}

  async execute({ realm, user, requestId }: UserCommand<Record<string, never>>): Promise<Record<string, never>> {
    await this.deactivation.deactivate(realm.id, user.id, { lastOwner: () => cannotDeactivateLast(true), lastUser: () => cannotDeactivateLast(false) }, requestId);
    return {};
  }
}

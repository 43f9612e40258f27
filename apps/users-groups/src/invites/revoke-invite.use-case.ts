import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { InviteAccess } from './invite-access';
import { InvitesChanged } from './invites-changed';

/**
 * DELETE /invites/{invite_id} (zerver/views/invite.py revoke_user_invite): the invitation is
 * deleted with its key, so its link stops working; `invites_changed` to the administrators and
 * its creator. "No such invitation" for one of another organization, used or already revoked.
 */
@Injectable()
export class RevokeInvite {
  constructor(
    private readonly access: InviteAccess,
    private readonly invites: InvitesRepository,
    private readonly changed: InvitesChanged,
  ) {}

  async execute({ user: caller, params, requestId }: UserCommand<DecodedParams<typeof UsersGroups.inviteIdParams>>): Promise<Record<string, never>> {
    const invite = await this.access.invitation(caller, params.invite_id);
    return this.changed.change(
      invite.realmId,
      invite.referredById,
      async (tx) => {
        await this.invites.deleteInvitation(invite.id, tx);
        return {};
      },
      requestId,
    );
  }
}

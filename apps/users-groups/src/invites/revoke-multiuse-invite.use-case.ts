import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { InviteAccess } from './invite-access';
import { InvitesChanged } from './invites-changed';

/**
 * DELETE /invites/multiuse/{invite_id} (zerver/views/invite.py revoke_multiuse_invite): the
 * link is marked revoked ("Invitation has already been revoked" a second time); sign-ups it
 * already started stay valid, as in Zulip. `invites_changed` to the administrators and its creator.
 */
@Injectable()
export class RevokeMultiuseInvite {
  constructor(
    private readonly access: InviteAccess,
    private readonly invites: InvitesRepository,
    private readonly changed: InvitesChanged,
  ) {}

  async execute({ user: caller, params, requestId }: UserCommand<DecodedParams<typeof UsersGroups.inviteIdParams>>): Promise<Record<string, never>> {
    const invite = await this.access.multiuse(caller, params.invite_id);
    return this.changed.change(
      invite.realmId,
      invite.referredById,
      async (tx) => {
        if (!(await this.invites.revokeMultiuse(invite.id, tx))) throw badRequest('Invitation has already been revoked');
        return {};
      },
      requestId,
    );
  }
}

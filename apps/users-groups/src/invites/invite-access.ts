import { Injectable } from '@nestjs/common';
import { Messaging, type AuthUser } from '@teamchat/contracts';
import type { MultiuseInviteModel, PreregistrationUserModel } from '@teamchat/db';
import { CommandClient } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { InviteStatus, InvitesRepository } from '../data/invites.repository';
import { GroupPermissions } from '../groups/group-permissions';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { checkRoleBasedPermissions } from './invite-rules';

const noSuchInvitation = () => badRequest('No such invitation');
const insufficient = () => badRequest('Insufficient permission');

/**
 * Who may do what with invitations (zerver/views/invite.py): members and administrators only
 * (require_member_or_admin: no guests, no bots); sending needs the organization's
 * can_invite_users_group, a reusable link its create_multiuse_invite_group; someone else's
 * invitation only an administrator manages (an owner's invitation, only an owner).
 */
@Injectable()
export class InviteAccess {
  constructor(
    private readonly invites: InvitesRepository,
    private readonly membership: GroupMembershipRepository,
    private readonly groupPermissions: GroupPermissions,
    private readonly commands: CommandClient,
  ) {}

  /** require_member_or_admin, then membership of the policy's group ("Insufficient permission"). */
  async checkMay(caller: AuthUser, groupId: number | null): Promise<void> {
    checkMemberOrAdmin(caller);
    if (groupId === null || !(await this.membership.isMember(caller.id, groupId))) throw insufficient();
  }

  /** Zulip's access_invite_by_id: a pending email invitation of the caller's organization that they may manage. */
  async invitation(caller: AuthUser, inviteId: number): Promise<PreregistrationUserModel & { referredById: number }> {
    checkMemberOrAdmin(caller);
    const invite = await this.invites.invitation(caller.realmId, inviteId);
    if (!invite || invite.referredById === null) throw noSuchInvitation();
    if (invite.referredById !== caller.id) checkRoleBasedPermissions(invite.invitedAs, caller, true);
    return invite as PreregistrationUserModel & { referredById: number };
  }

  /** Zulip's access_multiuse_invite_by_id: a reusable link of the caller's organization they may manage, not revoked. */
  async multiuse(caller: AuthUser, inviteId: number): Promise<MultiuseInviteModel> {
    checkMemberOrAdmin(caller);
    const invite = await this.invites.multiuse(caller.realmId, inviteId);
    if (!invite) throw noSuchInvitation();
    if (invite.referredById !== caller.id) checkRoleBasedPermissions(invite.invitedAs, caller, true);
    if (invite.status === InviteStatus.REVOKED) throw badRequest('Invitation has already been revoked');
    return invite;
  }

  /**
   * Zulip's access_streams_for_invite (messaging decides: channels are its own) and
   * access_user_groups_for_invite (each group's can_add_members_group, or managing it).
   */
  async checkChannelsAndGroups(caller: AuthUser, streamIds: number[], groupIds: number[]): Promise<void> {
    if (streamIds.length > 0) await this.commands.call(Messaging.checkInviteChannels, { inviter: caller, streamIds });
    for (const groupId of groupIds) await this.groupPermissions.forUpdate(caller, groupId, 'can_add_members_group');
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import { isAdminRole } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { RealmDirectory } from '../realms/realm-directory';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * GET /invites (zerver/actions/invites.py do_get_invites_controlled_by_user): the unexpired,
 * pending invitations the caller may manage — their own, or the organization's for an
 * administrator — email invitations first, then reusable links, each oldest first.
 */
@Injectable()
export class ListInvites {
  constructor(
    private readonly invites: InvitesRepository,
    private readonly realms: RealmDirectory,
  ) {}

  async execute({ realm, user: caller }: UserCommand<Record<string, never>>): Promise<{ invites: UsersGroups.InviteRecord[] }> {
    checkMemberOrAdmin(caller);
    const now = new Date();
    const referrer = isAdminRole(caller.role) ? undefined : caller.id;
    const [emails, links] = await Promise.all([
      this.invites.pendingInvitations(realm.id, referrer, now),
      this.invites.activeMultiuse(realm.id, referrer, now),
    ]);
    const realmUrl = this.realms.urlOf(realm.subdomain);
    return {
      invites: [
        ...emails.map((invite) => ({
          email: invite.email,
          invited_by_user_id: invite.referredById!,
          invited: seconds(invite.invitedAt),
          expiry_date: invite.expiresAt ? seconds(invite.expiresAt) : null,
          id: invite.id,
          invited_as: invite.invitedAs,
          is_multiuse: false,
          notify_referrer_on_join: invite.notifyReferrerOnJoin,
        })),
        ...links.map((invite) => ({
          invited_by_user_id: invite.referredById,
          invited: seconds(invite.createdAt),
          expiry_date: invite.expiresAt ? seconds(invite.expiresAt) : null,
          id: invite.id,
          link_url: `${realmUrl}${UsersGroups.JOIN_PATH}/${invite.key}/`,
          invited_as: invite.invitedAs,
          is_multiuse: true,
        })),
      ],
    };
  }
}

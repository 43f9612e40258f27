import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import { MailQueue } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { Transactions } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { InviteAccess } from './invite-access';
import { invitationMail } from './invite-mails';
import { DAILY_LIMIT_REACHED, INVITES_DAILY_MAX, invitationFailed } from './invite-rules';

/**
 * POST /invites/{invite_id}/resend (zerver/views/invite.py resend_user_invite_email,
 * do_send_user_invite_email): the same link mailed again, from the invitation's creator, within
 * the organization's daily limit (a resend is counted against it, not recorded in it).
 */
@Injectable()
export class ResendInvite {
  constructor(
    private readonly access: InviteAccess,
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    private readonly realms: RealmDirectory,
    private readonly mail: MailQueue,
  ) {}

  async execute({ realm, user: caller, params }: UserCommand<DecodedParams<typeof UsersGroups.inviteIdParams>>): Promise<Record<string, never>> {
    const invite = await this.access.invitation(caller, params.invite_id);
    await this.transactions.run(async (tx) => {
      await this.invites.lockRealmInvitations(realm.id, tx);
      if ((await this.invites.invitationsSince(realm.id, new Date(Date.now() - 86_400_000), tx)) + 1 > INVITES_DAILY_MAX) {
        throw invitationFailed(DAILY_LIMIT_REACHED, [], { sentInvitations: false, dailyLimitReached: true });
      }
    });
    const referrer = (await this.users.inRealm(realm.id, invite.referredById))!;
    const realmUrl = this.realms.urlOf(realm.subdomain);
    await this.mail.send(
      invitationMail({
        to: invite.email,
        referrerName: referrer.fullName,
        referrerEmail: referrer.deliveryEmail,
        realmName: realm.name,
        realmUrl,
        link: `${realmUrl}${UsersGroups.DO_CONFIRM_PATH}/${invite.key}`,
      }),
    );
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import { MailQueue } from '@teamchat/platform';
import { badRequest, isAdminRole, type DecodedParams } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { InviteAccess } from './invite-access';
import { invitationMail } from './invite-mails';
import { InvitePolicy } from './invite-policy';
import {
  DAILY_LIMIT_REACHED,
  INVITES_DAILY_MAX,
  INVITES_MIN_USER_AGE_DAYS,
  checkInviteAs,
  checkInviteAsValue,
  emailProblem,
  expiryOf,
  generateConfirmationKey,
  invitationFailed,
  invitationWelcomeText,
  parseInviteeEmails,
} from './invite-rules';
import { InvitesChanged } from './invites-changed';

type Params = DecodedParams<typeof UsersGroups.sendInvitesParams>;

/**
 * POST /invites (zerver/views/invite.py invite_users_backend, zerver/actions/invites.py
 * do_invite_users), checked in Zulip's order: the caller may invite (members and administrators
 * in can_invite_users_group), the role (owners by owners; administrators and moderators by
 * administrators), at least one address, the channels and groups, then the organization's daily
 * limit (Zulip's max_invites, 100), an account too new where sign-up is open, each address
 * (valid and allowed by the domain policy: otherwise nobody is invited), addresses already in
 * use (skipped; nobody invited when that is everyone). An address already invited is invited
 * again. Each invitation is stored with its own key and its mail queued (MailQueue); then
 * `invites_changed`. When some were skipped, the request answers INVITATION_FAILED with
 * `sent_invitations: true` after sending the rest, as Zulip does. A `welcome_message_custom_text`
 * (administrators only, checked after the channels and groups) is kept for Welcome Bot to send
 * the account made from the invitation; without one, the organization's text.
 */
@Injectable()
export class SendInvites {
  constructor(
    private readonly access: InviteAccess,
    private readonly policies: InvitePolicy,
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
    private readonly realms: RealmDirectory,
    private readonly mail: MailQueue,
    private readonly changed: InvitesChanged,
  ) {}

  async execute({ realm, user: caller, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    // Zulip's order: the decorator (no guests, no bots), the parameters, then the permissions.
    checkMemberOrAdmin(caller);
    checkInviteAsValue(params.invite_as);
    const policy = await this.policies.of(realm.id);
    await this.access.checkMay(caller, policy.canInviteUsersGroupId);
    checkInviteAs(params.invite_as, caller);
    if (!params.invitee_emails) throw badRequest('You must specify at least one email address.');
    const emails = parseInviteeEmails(params.invitee_emails);
    const streamIds = [...new Set(params.stream_ids)];
    const groupIds = [...new Set(params.group_ids ?? [])];
    await this.access.checkChannelsAndGroups(caller, streamIds, groupIds);
    const welcomeMessageCustomText = invitationWelcomeText(caller, params.welcome_message_custom_text);
    const expiresAt = expiryOf(params.invite_expires_in_minutes);

    const realmUrl = this.realms.urlOf(realm.subdomain);
    // Read before the transaction (never through the pool inside it).
    const joined = !policy.inviteRequired && !isAdminRole(caller.role) ? (await this.users.inRealm(realm.id, caller.id))?.dateJoined : undefined;
    const { skipped, invited } = await this.changed.change(realm.id, caller.id, async (tx) => {
      await this.invites.lockRealmInvitations(realm.id, tx);
      const sentToday = await this.invites.invitationsSince(realm.id, new Date(Date.now() - 86_400_000), tx);
      if (sentToday + emails.length > INVITES_DAILY_MAX) {
        throw invitationFailed(DAILY_LIMIT_REACHED, [], { sentInvitations: false, dailyLimitReached: true });
      }
      if (!policy.inviteRequired && !isAdminRole(caller.role)) {
        if (joined && joined.getTime() > Date.now() - INVITES_MIN_USER_AGE_DAYS * 86_400_000) {
          throw invitationFailed(
            'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
            [],
            { sentInvitations: false },
          );
        }
      }
      const errors: [string, string, boolean][] = [];
      const good = emails.filter((email) => {
        if (email === '') return false;
        const problem = emailProblem(email, policy);
        if (problem) errors.push([email, problem, false]);
        return problem === null;
      });
      const taken = new Map((await this.invites.accountsWithEmails(realm.id, good, tx)).map((account) => [account.email.toLowerCase(), account.isActive]));
      const skipped: [string, string, boolean][] = good
        .filter((email) => taken.has(email.toLowerCase()))
        .map((email) => (taken.get(email.toLowerCase()) ? [email, 'Already has an account.', false] : [email, 'Account has been deactivated.', true]));
      if (errors.length > 0) {
        throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], { sentInvitations: false });
      }
      if (skipped.length > 0 && skipped.length === emails.length) {
        throw invitationFailed("We weren't able to invite anyone.", skipped, { sentInvitations: false });
      }
      const invited = good
        .filter((email) => !taken.has(email.toLowerCase()))
        .map((email) => ({
          realmId: realm.id,
          email,
          referredById: caller.id,
          multiuseInviteId: null,
          invitedAs: params.invite_as,
          streamIds,
          groupIds,
          includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
          notifyReferrerOnJoin: params.notify_referrer_on_join,
          welcomeMessageCustomText,
          key: generateConfirmationKey(),
          expiresAt,
        }));
      await this.invites.createPreregistrations(invited, tx);
      return { skipped, invited };
    }, requestId);
    // Queued once committed (Zulip's queue_event_on_commit): a mail never names a key that was rolled back.
    await this.mail.sendAll(
      invited.map((invite) =>
        invitationMail({
          to: invite.email,
          referrerName: caller.fullName,
          referrerEmail: caller.deliveryEmail,
          realmName: realm.name,
          realmUrl,
          link: `${realmUrl}${UsersGroups.DO_CONFIRM_PATH}/${invite.key}`,
        }),
      ),
    );
    if (skipped.length > 0) {
      throw invitationFailed(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        skipped,
        { sentInvitations: true },
      );
    }
    return {};
  }
}

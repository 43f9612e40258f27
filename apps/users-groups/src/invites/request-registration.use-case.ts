import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { APP_CONFIG, MailQueue, RateLimiter, type AppConfig, type RateLimitRule } from '@teamchat/platform';
import { ZulipError, badRequest } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { Transactions } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { confirmRegistrationMail } from './invite-mails';
import { InvitePolicy } from './invite-policy';
import { REGISTRATION_LINK_VALIDITY_MINUTES, emailProblem, expiryOf, generateConfirmationKey } from './invite-rules';
import { SignupStartCheck } from './signup-start.use-case';

/** Confirmation mails one address may be sent in a day from the sign-up pages (Zulip limits them by IP; the gateway does not see one here). */
const MAILS_BY_ADDRESS: RateLimitRule = { name: 'signup_mail_by_address', limit: 5, windowSeconds: 86400 };

/**
 * POST /join/<key>/ and POST /accounts/register/ with an address (Zulip's
 * maybe_send_to_registration and create_preregistration_user): after the page's own checks, the
 * address must be valid, allowed by the domain policy and unused in the organization; a pending
 * sign-up is stored (carrying a reusable link's role, channels and groups; open sign-up's:
 * member, the default channels) and its link mailed to the address, valid a day. The address is
 * proven by following that link, which leads to the registration form.
 */
@Injectable()
export class RequestRegistration {
  constructor(
    private readonly start: SignupStartCheck,
    private readonly policies: InvitePolicy,
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    private readonly realms: RealmDirectory,
    private readonly mail: MailQueue,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ host, email: raw, multiuseKey }: PayloadOf<typeof UsersGroups.requestRegistration>): Promise<UsersGroups.SignupStart> {
    const { realm, multiuse } = await this.start.check(host, multiuseKey);
    const email = raw.trim();
    const problem = emailProblem(email, await this.policies.of(realm.id));
    if (problem) throw badRequest(problem);
    const holder = await this.users.emailHolder(realm.id, email);
    if (holder) throw badRequest(holder.isActive ? 'Already has an account.' : 'Account has been deactivated.');
    if (this.config.RATE_LIMIT_ENABLED && !(await this.limiter.hit(MAILS_BY_ADDRESS, email.toLowerCase())).allowed) {
      throw new ZulipError('RATE_LIMIT_HIT', 'API usage exceeded rate limit');
    }
    const key = generateConfirmationKey();
    await this.transactions.run((tx) =>
      this.invites.createPreregistrations(
        [
          {
            realmId: realm.id,
            email,
            referredById: null,
            multiuseInviteId: multiuse?.id ?? null,
            invitedAs: multiuse?.invitedAs ?? 400,
            streamIds: multiuse?.streamIds ?? [],
            groupIds: multiuse?.groupIds ?? [],
            includeRealmDefaultSubscriptions: multiuse ? multiuse.includeRealmDefaultSubscriptions : true,
            notifyReferrerOnJoin: false,
            welcomeMessageCustomText: multiuse?.welcomeMessageCustomText ?? null,
            key,
            expiresAt: expiryOf(REGISTRATION_LINK_VALIDITY_MINUTES),
          },
        ],
        tx,
      ),
    );
    const realmUrl = this.realms.urlOf(realm.subdomain);
    await this.mail.send(confirmRegistrationMail({ to: email, realmName: realm.name, realmUrl, link: `${realmUrl}${UsersGroups.DO_CONFIRM_PATH}/${key}` }));
    return { realmName: realm.name };
  }
}

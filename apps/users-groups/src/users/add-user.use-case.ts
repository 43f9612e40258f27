import { Inject, Injectable } from '@nestjs/common';
import { Messaging, type ApiCommand, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { CommandClient, LOGGER, outsideCommand } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { isStrongEnough, withPasswordHashing } from '../auth/passwords';
import { OrganizationsRepository } from '../data/organizations.repository';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { emailAllowedByDomains } from '../realm-settings/realm-domain-rules';
import { WelcomeBot } from '../realm-settings/welcome-bot';
import { UsersRepository } from '../data/users.repository';
import { isValidEmailAddress } from '../email-changes/email-address';
import { CreateUser } from './create-user.use-case';
import { checkFullName } from './full-name';
import { requireAdministrator } from './user-admin-events';
import { UserCreatedEvents } from './user-created-events';

type Params = DecodedParams<typeof UsersGroups.createUserParams>;

/**
 * POST /users (zerver/views/users.py create_user_backend): an administrator creates an account,
 * checked in Zulip's order (administrator, full name, address, address in use, password
 * strength) before anything is written. Zulip also requires the server-level can_create_users
 * permission; here every administrator has it.
 *
 * Announced as Zulip's do_create_user does: `realm_user` add to every active user (the record
 * as each may see it: the real address only to those the new user's email visibility allows),
 * then `user_group` add_members for the system groups the new account is in, written with the
 * account in one transaction (the outbox); then messaging subscribes it to the default channels
 * (with their own `subscription` events); Welcome Bot then sends it its first direct message
 * (not awaited). The password is hashed first, where a burst is refused before anything is
 * written; the transaction commits only while the caller still waits, so a 503 created nothing. An organization that restricts addresses to its
 * domains refuses others (disposable addresses are not recognised here).
 */
@Injectable()
export class AddUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly create: CreateUser,
    private readonly outbox: EventOutbox,
    private readonly commands: CommandClient,
    private readonly organizations: OrganizationsRepository,
    private readonly realmSettings: RealmSettingsRepository,
    private readonly welcomeBot: WelcomeBot,
    private readonly created: UserCreatedEvents,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user: caller, params, requestId }: ApiCommand<Params>): Promise<{ user_id: number }> {
    requireAdministrator(caller);
    const fullName = checkFullName(params.full_name);
    const email = params.email.trim();
    if (!isValidEmailAddress(email)) throw badRequest('Bad name or username');
    // A place in the hashing queue first: under a burst, a refused request does no lookup either.
    const { organization, passwordHash } = await withPasswordHashing(async (hasher) => {
      const organization = await this.organizations.byIdOrThrow(realm.id);
      if (organization.emailsRestrictedToDomains && !emailAllowedByDomains(email, await this.realmSettings.domains(realm.id))) {
        throw badRequest(`Email '${email}' not allowed in this organization`);
      }
      if ((await this.users.withDeliveryEmail(realm.id, email)).length > 0) throw badRequest(`Email '${email}' already in use`);
      if (!isStrongEnough(params.password)) throw badRequest('The password is too weak.');
      // Welcome Bot exists before anyone is told of the account (it is one of the organization's active users).
      await this.welcomeBot.id(realm);
      return { organization, passwordHash: await hasher.hash(params.password) };
    });
    const row = await this.outbox.runCold(async (tx) => {
      const created = await this.create.execute({ realmId: realm.id, email, fullName, passwordHash }, tx);
      const { row: stored, events } = await this.created.of(realm, created.id, tx);
      return { value: stored, events };
    }, requestId);
    // Then the organization's default channels, through messaging's subscription path (Zulip's
    // process_new_human_user), answered in time for this command's own answer. The account
    // exists whatever happens here: if messaging cannot answer in time, the subscription goes on
    // after the answer (subscribing is idempotent), and the answer stays the truth, created.
    const user = { id: row.id, realmId: realm.id, email: row.deliveryEmail, deliveryEmail: row.deliveryEmail, fullName: row.fullName, role: row.role, isBot: false };
    const subscribe = () => this.commands.call(Messaging.subscribeToDefaultChannels, { user, requestId });
    await subscribe().catch(() =>
      outsideCommand(() =>
        void subscribe().catch((error: unknown) => this.logger.error({ err: error, userId: row.id, requestId }, 'new account not subscribed to the default channels')),
      ),
    );
    // Welcome Bot's first message, and the organization's custom text (process_new_human_user),
    // sent after the answer: the account does not wait on messaging (best effort, failures logged).
    void this.welcomeBot.welcome({ ...realm, name: organization.name }, row, organization, requestId);
    return { user_id: row.id };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Messaging, type AuthUser, type PayloadOf, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox, type OutboxEvent } from '@teamchat/db';
import { CommandClient, LOGGER } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { hashPassword, isStrongEnough } from '../auth/passwords';
import { InvitesRepository } from '../data/invites.repository';
import { OrganizationsRepository } from '../data/organizations.repository';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository } from '../data/users.repository';
import { WelcomeBot } from '../realm-settings/welcome-bot';
import { RealmDirectory } from '../realms/realm-directory';
import { NotificationBot } from '../system-bots/notification-bot.use-case';
import { CreateUser } from '../users/create-user.use-case';
import { checkFullName } from '../users/full-name';
import { UserCreatedEvents } from '../users/user-created-events';
import { InvitesChanged } from './invites-changed';
import { checkKeyShape, checkPendingSignup } from './signup-links';

type Command = PayloadOf<typeof UsersGroups.registerAccount>;

/**
 * POST /accounts/register/ with a key (zerver/views/registration.py accounts_register, then
 * zerver/actions/create_user.py do_create_user and process_new_human_user): the full name and the
 * password are checked (Zulip's texts) and the password hashed, then in one transaction, with
 * the sign-up locked so two forms posted at once make one account: the sign-up still pending and
 * unexpired, the address unused, the account made with the invited role (settings from the
 * organization's defaults, CreateUser), added to the invitation's groups that still exist, and
 * the sign-up marked used (other pending sign-ups of the address revoked).
 *
 * Announced as Zulip: `realm_user` add to every active user (the record as each may see it), the
 * `user_group` add_members of its groups, and `invites_changed` to the administrators and the
 * referrer, all written in that transaction (the outbox). After the commit, messaging subscribes
 * it to the invitation's channels (and the default ones when asked) with the subscription path's
 * events, the referrer hears from the notification bot when they asked to, and Welcome Bot sends
 * the new user its first direct message and the organization's custom text (process_new_human_user's
 * send_initial_direct_message, as for accounts made by POST /users): best effort, the account
 * exists either way.
 */
@Injectable()
export class RegisterAccount {
  constructor(
    private readonly realms: RealmDirectory,
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly outbox: EventOutbox,
    private readonly create: CreateUser,
    private readonly commands: CommandClient,
    private readonly notificationBot: NotificationBot,
    private readonly changed: InvitesChanged,
    private readonly organizations: OrganizationsRepository,
    private readonly welcomeBot: WelcomeBot,
    private readonly created: UserCreatedEvents,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ host, key, fullName: rawName, password, requestId }: Command): Promise<UsersGroups.AccountRegistered> {
    const realm = await this.realms.resolve(host);
    checkKeyShape(key);
    const fullName = checkFullName(rawName);
    if (!isStrongEnough(password)) throw badRequest('The password is too weak.');

    // Hashed before the transaction: no connection waits on the hashing.
    const passwordHash = await hashPassword(password);
    // Welcome Bot exists before anyone is told of the account (it is one of the organization's active users).
    await this.welcomeBot.id(realm);
    const { user, prereg } = await this.outbox.runCold(async (tx) => {
      const prereg = await this.invites.lockByKey(key, tx);
      const multiuse = prereg?.multiuseInviteId ? await this.invites.multiuse(realm.id, prereg.multiuseInviteId, tx) : null;
      checkPendingSignup(prereg, realm.id, multiuse);
      const holder = await this.users.emailHolder(realm.id, prereg.email, tx);
      if (holder) throw badRequest(holder.isActive ? 'Already has an account.' : 'Account has been deactivated.');
      const user = await this.create.execute({ realmId: realm.id, email: prereg.email, fullName, passwordHash, role: prereg.invitedAs }, tx);
      for (const groupId of prereg.groupIds) {
        const group = await this.groups.named(realm.id, groupId, tx);
        if (!group || group.deactivated || group.isSystemGroup) continue;
        await this.groups.changeParts(group.id, { add: [user.id], delete: [], addSubgroups: [], deleteSubgroups: [] }, tx);
      }
      await this.invites.markUsed(prereg, user.id, tx);

      // Zulip's notify_created_user and the account's group memberships, then invites_changed (the
      // invitation is used), each read with the account in place.
      const events: OutboxEvent[] = (await this.created.of(realm, user.id, tx)).events;
      if (prereg.referredById !== null) events.push(await this.changed.event(realm.id, prereg.referredById, tx));
      return { value: { user, prereg }, events };
    }, requestId);

    const authUser: AuthUser = {
      id: user.id,
      realmId: realm.id,
      email: user.deliveryEmail,
      deliveryEmail: user.deliveryEmail,
      fullName: user.fullName,
      role: user.role,
      isBot: false,
    };
    await this.commands
      .call(Messaging.subscribeNewUser, {
        user: authUser,
        streamIds: prereg.streamIds,
        includeDefaultChannels: prereg.includeRealmDefaultSubscriptions,
        requestId,
      })
      .catch((err: unknown) => this.logger.error({ err, requestId, userId: user.id }, 'account made, but its channels were not joined'));
    if (prereg.referredById !== null && prereg.notifyReferrerOnJoin) await this.notifyReferrer(realm.id, prereg.referredById, user, requestId);
    // Welcome Bot's first message, and the invitation's custom text (null: the organization's), sent
    // after the answer (not awaited).
    void this.organizations
      .byIdOrThrow(realm.id)
      .then((organization) =>
        this.welcomeBot.welcome(
          { ...realm, name: organization.name },
          user,
          { orgType: organization.orgType, welcomeMessageCustomText: prereg.welcomeMessageCustomText ?? organization.welcomeMessageCustomText },
          requestId,
        ),
      )
      .catch((err: unknown) => this.logger.error({ err, requestId, userId: user.id }, 'account made, but not welcomed'));
    return { userId: user.id, email: user.deliveryEmail, realmName: realm.name, realmUrl: this.realms.urlOf(realm.subdomain) };
  }

  /** Zulip: "@_**Name|id** accepted your invitation to join Zulip!" from the notification bot, to an active referrer. */
  private async notifyReferrer(realmId: number, referrerId: number, user: { id: number; fullName: string }, requestId: string): Promise<void> {
    try {
      const referrer = await this.users.inRealm(realmId, referrerId);
      if (!referrer?.isActive) return;
      const { userId: botId } = await this.notificationBot.execute({ realmId });
      await this.commands.call(Messaging.sendScheduledMessage, {
        realmId,
        senderId: botId,
        client: 'Internal',
        readBySender: null,
        requestId: `${requestId}-referrer`,
        type: 'private',
        to: JSON.stringify([referrerId]),
        content: `@_**${user.fullName}|${user.id}** accepted your invitation to join Zulip!`,
      });
    } catch (err) {
      this.logger.error({ err, requestId, referrerId }, 'account made, but its referrer was not told');
    }
  }
}

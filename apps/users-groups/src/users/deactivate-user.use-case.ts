import { Inject, Injectable } from '@nestjs/common';
import type { ApiCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { LOGGER, MailQueue } from '@teamchat/platform';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { UsersRepository } from '../data/users.repository';
import { UserAccess } from './user-access';
import { deactivationMail } from './deactivation-mail';
import { accessChanged, ownerRequired, realmUserUpdate, requireAdministrator, type PublishedEvent } from './user-admin-events';
import { UserLookup } from './user-lookup';
import { BotActivityEvents } from '../bots/bot-activity-events';

type Params = DecodedParams<typeof UsersGroups.deactivateUserParams>;

/** The errors a deactivation answers when it would leave the organization without an owner, or without anyone. */
export interface DeactivationRefusals {
  lastOwner: () => Error;
  lastUser?: () => Error;
}

/**
 * DELETE /users/{user_id} (zerver/views/users.py deactivate_user_backend, zerver/actions/users.py
 * do_deactivate_user): an administrator deactivates a human account, and with it the active
 * bots it owns. Only owners deactivate owners, and never the organization's last one; an
 * administrator may deactivate themselves here.
 *
 * Announced as Zulip does: `realm_user` update `{is_active: false}` to the organization's active
 * users (each bot's first, then the user's), and no `user_group` events, since clients drop a
 * deactivated user from every group themselves. Every gateway is told the credentials are gone
 * (the API key is refused from the next request) and the fan-out deletes the user's event queues.
 * With a `deactivation_notification_comment` (even an empty one), the user is told by mail, as
 * Zulip's _deactivate_user_profile_backend sends zerver/emails/deactivate.
 */
@Injectable()
export class DeactivateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly lookup: UserLookup,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
    private readonly botEvents: BotActivityEvents,
    private readonly mail: MailQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user: caller, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(caller);
    const target = await this.lookup.byId(realm, params.user_id, { allowDeactivated: false, allowBots: false });
    if (target.role === Role.OWNER && caller.role !== Role.OWNER) throw ownerRequired();
    await this.deactivate(realm.id, target.id, { lastOwner: () => badRequest('Cannot deactivate the only organization owner') }, requestId);
    const comment = params.deactivation_notification_comment;
    if (comment !== undefined) {
      await this.mail
        .send(deactivationMail({ to: target.deliveryEmail, realmName: realm.name, realmUrl: realm.url, comment: comment.trim() }))
        .catch((error: unknown) => this.logger.error({ err: error, requestId }, 'user deactivated, but the mail telling them was not queued'));
    }
    return {};
  }

  /**
   * The one deactivation rule, for this endpoint and DELETE /users/me: in one transaction, the
   * organization's owners locked, then the user; never the last active owner (`refusals.lastOwner`)
   * nor, when `refusals.lastUser` is given, the organization's last active user. The user's active
   * bots go with them; the events commit with the change (the outbox), published before this answers.
   */
  async deactivate(realmId: number, userId: number, refusals: DeactivationRefusals, requestId: string): Promise<void> {
    // The realm_bot events' audiences, read before the transaction (never through the pool inside it).
    const botAdministrators = await this.botEvents.administratorsBeforeDeactivating(realmId, userId);
    await this.outbox.run(async (tx) => {
      const deactivatedBots: number[] = [];
      // Owners first, then the user, as every change of role or activity locks them.
      const owners = await this.users.lockHumanOwners(realmId, tx);
      const row = await this.users.lock(userId, tx);
      if (!row.isActive) throw badRequest('User is deactivated');
      if (refusals.lastUser) {
        const active = await this.users.activeOfRealm(realmId, tx);
        if (active.length === 1 && active[0].id === row.id) throw refusals.lastUser();
      }
      if (row.role === Role.OWNER && owners.length === 1 && owners[0].id === row.id) throw refusals.lastOwner();
      const bots = await this.users.lockActiveBotsOwnedBy(row.id, tx);
      await this.users.setActive([...bots, row.id], false, tx);
      deactivatedBots.push(...bots, ...(row.isBot ? [row.id] : []));
      const recipients = (await this.users.activeOfRealm(realmId, tx)).map((user) => user.id);

      // Zulip deactivates the bots first, while their owner is still active and told.
      const published: PublishedEvent[] = [];
      const withOwner = [...recipients, row.id].sort((a, b) => a - b);
      for (const bot of bots) {
        published.push(realmUserUpdate(realmId, withOwner, bot, { is_active: false }), accessChanged(realmId, bot, true));
      }
      // Not the guests the user is hidden from (UserAccess); bots are hidden from nobody.
      published.push(realmUserUpdate(realmId, await this.access.seeing(realmId, row.id, recipients), row.id, { is_active: false }), accessChanged(realmId, row.id, true));
      // Each bot's administrators hear it too (`realm_bot` update); a bot made after the read
      // above (while its owner was being deactivated) is announced to its owner alone.
      for (const botId of deactivatedBots) published.push(this.botEvents.deactivatedFor(realmId, botId, botAdministrators.get(botId) ?? [row.id]));
      return { value: undefined, events: published };
    }, requestId);
  }
}

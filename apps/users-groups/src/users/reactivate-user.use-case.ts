import { Injectable } from '@nestjs/common';
import type { ApiCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { onConnection } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository } from '../data/users.repository';
import { groupMembershipEvents } from './system-group-events';
import { UserAccess } from './user-access';
import { realmUserUpdate, requireAdministrator, type PublishedEvent } from './user-admin-events';
import { UserLookup } from './user-lookup';
import { BotAccess } from '../bots/bot-rules';
import { BotActivityEvents } from '../bots/bot-activity-events';

type Params = DecodedParams<typeof UsersGroups.reactivateUserParams>;

/**
 * POST /users/{user_id}/reactivate (zerver/views/users.py reactivate_user_backend,
 * zerver/actions/create_user.py do_reactivate_user): an administrator reactivates an account,
 * human or bot. A bot whose owner is deactivated passes to the administrator.
 *
 * Announced as Zulip does: `realm_user` update `{is_active: true}` (and the bot's new owner),
 * then `user_group` add_members for every named group the user is back in (system groups by
 * role, user-defined ones by their stored membership), to the organization's active users; a
 * bot's `realm_bot` events to its administrators come between. The events commit with the
 * change (the outbox). An account that is already active is left as it is, and nothing is
 * announced.
 */
@Injectable()
export class ReactivateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly outbox: EventOutbox,
    private readonly lookup: UserLookup,
    private readonly bots: BotAccess,
    private readonly botActivity: BotActivityEvents,
    private readonly access: UserAccess,
  ) {}

  async execute({ realm, user: caller, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(caller);
    const target = await this.lookup.byId(realm, params.user_id, { allowDeactivated: true, allowBots: true });
    // A bot comes back only under a name no active account has (Zulip's check_bot_name_available).
    if (target.isBot && !target.isActive) await this.bots.checkNameAvailable(realm.id, target.fullName, { activation: true });

    await this.outbox.runCold(async (tx) => {
      // Users' statements on the transaction's connection; the bot's records are Prisma's.
      const pgTx = onConnection(tx);
      const row = await this.users.lock(target.id, pgTx);
      if (row.isActive) return { value: undefined, events: [] };
      const before = await this.groups.directNamedGroupsOf(row.id, pgTx);
      await this.users.setActive([row.id], true, pgTx);
      const after = await this.groups.directNamedGroupsOf(row.id, pgTx);
      let newOwner: number | undefined;
      if (row.isBot && row.botOwnerId !== null) {
        const owner = await this.users.inRealm(realm.id, row.botOwnerId, pgTx);
        if (owner && !owner.isActive) {
          newOwner = caller.id;
          await this.users.setBotOwner(row.id, newOwner, pgTx);
        }
      }
      const recipients = (await this.users.activeOfRealm(realm.id, tx)).map((user) => user.id);
      // Zulip's get_user_ids_who_can_access_user, with the user active again.
      const audience = await this.access.seeing(realm.id, row.id, recipients, tx);

      // For a bot, its administrators (and a new owner, Zulip's send_bot_owner_update_events) between the two.
      const botEvents: PublishedEvent[] = [];
      if (row.isBot) {
        botEvents.push(await this.botActivity.reactivated(realm.id, row.id, tx));
        if (newOwner !== undefined) botEvents.push(...(await this.botActivity.ownerChanged(realm.id, row.id, row.botOwnerId, newOwner, tx)));
      }
      return {
        value: undefined,
        events: [realmUserUpdate(realm.id, audience, row.id, { is_active: true }), ...botEvents, ...groupMembershipEvents(realm.id, row.id, before, after, recipients)],
      };
    }, requestId);
    return {};
  }
}

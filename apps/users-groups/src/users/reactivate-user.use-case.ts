import { Injectable } from '@nestjs/common';
import type { ApiCommand, UsersGroups } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { Transactions } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository } from '../data/users.repository';
import { groupMembershipEvents } from './system-group-events';
import { realmUserUpdate, requireAdministrator, type PublishedEvent } from './user-admin-events';
import { UserLookup } from './user-lookup';

type Params = DecodedParams<typeof UsersGroups.reactivateUserParams>;

/**
 * POST /users/{user_id}/reactivate (zerver/views/users.py reactivate_user_backend,
 * zerver/actions/create_user.py do_reactivate_user): an administrator reactivates an account,
 * human or bot. A bot whose owner is deactivated passes to the administrator.
 *
 * Announced as Zulip does: `realm_user` update `{is_active: true}` (and the bot's new owner),
 * then `user_group` add_members for every named group the user is back in (system groups by
 * role, user-defined ones by their stored membership), to the organization's active users. An
 * account that is already active is left as it is, and nothing is announced.
 */
@Injectable()
export class ReactivateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly transactions: Transactions,
    private readonly lookup: UserLookup,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user: caller, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    requireAdministrator(caller);
    const target = await this.lookup.byId(realm, params.user_id, { allowDeactivated: true, allowBots: true });

    const events = await this.transactions.runOnPg(async (tx) => {
      const row = await this.users.lock(target.id, tx);
      if (row.isActive) return [];
      const before = await this.groups.directNamedGroupsOf(row.id, tx);
      await this.users.setActive([row.id], true, tx);
      const after = await this.groups.directNamedGroupsOf(row.id, tx);
      let newOwner: number | undefined;
      if (row.isBot && row.botOwnerId !== null) {
        const owner = await this.users.inRealm(realm.id, row.botOwnerId, tx);
        if (owner && !owner.isActive) {
          newOwner = caller.id;
          await this.users.setBotOwner(row.id, newOwner, tx);
        }
      }
      const recipients = (await this.users.activeOfRealm(realm.id, tx)).map((user) => user.id);

      const published: PublishedEvent[] = [realmUserUpdate(realm.id, recipients, row.id, { is_active: true })];
      if (newOwner !== undefined) published.push(realmUserUpdate(realm.id, recipients, row.id, { bot_owner_id: newOwner }));
      published.push(...groupMembershipEvents(realm.id, row.id, before, after, recipients));
      return published;
    });
    await this.events.publishAll(events, requestId);
    return {};
  }
}

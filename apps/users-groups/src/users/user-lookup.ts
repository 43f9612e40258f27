import { Injectable } from '@nestjs/common';
import { EmailVisibility, canSeeDeliveryEmail, resolveSettings, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { UsersRepository, type UserRow } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';

export interface AccessRules {
  /** A deactivated account is found rather than refused with "User is deactivated". */
  allowDeactivated: boolean;
  /** A bot is found rather than refused with "No such user". */
  allowBots: boolean;
}

const noSuchUser = () => badRequest('No such user');

/**
 * Finding the user an endpoint names, as Zulip's access_user_by_id and access_user_by_email
 * (zerver/lib/users.py) do: only the caller's organization, its refusals and their order.
 */
@Injectable()
export class UserLookup {
  constructor(
    private readonly users: UsersRepository,
    private readonly realms: RealmDirectory,
  ) {}

  async byId(realm: RealmRef, userId: number, rules: AccessRules): Promise<UserRow> {
    const user = isStoredId(userId) ? await this.users.inRealm(realm.id, userId) : undefined;
    return admit(user, rules);
  }

  /**
   * By the dummy address `user<id>@<organization host>` (tried first: it names the user by id,
   * whoever may see their real address), else by the real address, case aside, among the users
   * whose email visibility lets the caller see it. Zulip makes no exception for the caller's own
   * address here.
   */
  async byEmail(realm: RealmRef, viewer: Pick<AuthUser, 'role'>, email: string, rules: AccessRules): Promise<UserRow> {
    const dummy = this.dummyAddress(realm).exec(email);
    if (dummy) return this.byId(realm, Number(dummy[1]), rules);
    const candidates = await this.users.withDeliveryEmail(realm.id, email.trim());
    const user = candidates.find((candidate) => {
      const visibility = candidate.isBot ? EmailVisibility.EVERYONE : resolveSettings(candidate.settings).email_address_visibility;
      return canSeeDeliveryEmail({ id: 0, role: viewer.role }, candidate.id, visibility);
    });
    return admit(user, rules);
  }

  private dummyAddress(realm: RealmRef): RegExp {
    const host = this.realms.hostnameOf(realm.subdomain).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`^user(\\d+)@${host}$`);
  }
}

function admit(user: UserRow | undefined, rules: AccessRules): UserRow {
  if (!user) throw noSuchUser();
  if (user.isBot && !rules.allowBots) throw noSuchUser();
  if (!user.isActive && !rules.allowDeactivated) throw badRequest('User is deactivated');
  return user;
}

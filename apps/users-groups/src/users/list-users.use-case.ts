import { Injectable } from '@nestjs/common';
import type { ApiCommand, AuthUser, RealmRef, UserRecord, UsersGroups } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UsersRepository, type UserRow } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { UserAccess } from './user-access';
import { profileDataOf, toUserRecord } from './user-record';

type Params = DecodedParams<typeof UsersGroups.listUsersParams>;

/**
 * GET /users: every account of the organization (active or not) the caller may see, or those
 * of them in `user_ids` (Zulip leaves out whom can_access_all_users_group hides: UserAccess).
 */
@Injectable()
export class ListUsers {
  constructor(
    private readonly users: UsersRepository,
    private readonly profileFields: ProfileFieldsRepository,
    private readonly realms: RealmDirectory,
    private readonly access: UserAccess,
  ) {}

  async execute({ realm, user: viewer, params }: ApiCommand<Params>): Promise<{ members: UserRecord[] }> {
    const ids = params.user_ids ? [...new Set(params.user_ids)] : undefined;
    const users = ids
      ? // Ids are Postgres integers: a larger number names no user, and must not reach the query.
        await this.users.ofRealmByIds(realm.id, ids.filter(isStoredId))
      : await this.users.ofRealm(realm.id);
    if (ids && users.length !== ids.length) {
      const found = new Set(users.map((u) => u.id));
      throw badRequest(`Invalid user ID: ${ids.find((id) => !found.has(id))}`);
    }

    const hidden = await this.access.hiddenFrom(realm.id, viewer, ids);
    const seen = hidden.size === 0 ? users : users.filter((user) => !hidden.has(user.id));
    return { members: await this.records(seen, realm, viewer, params.client_gravatar, params.include_custom_profile_fields) };
  }

  /**
   * A page of the organization's accounts (ids after `afterId`, in id order) as a viewer of this
   * role sees someone else's record, custom profile fields included: POST /register's people.
   */
  async page(realm: RealmRef, viewerRole: number, clientGravatar: boolean, afterId: number, limit: number): Promise<{ records: UserRecord[]; next: number | null }> {
    const users = await this.users.ofRealmPage(realm.id, afterId, limit);
    // Nobody's own record: a viewer's own differs only in delivery_email, which the caller puts in.
    const records = await this.records(users, realm, { id: 0, role: viewerRole }, clientGravatar, true);
    return { records, next: users.length === limit ? users[users.length - 1].id : null };
  }

  private async records(users: UserRow[], realm: RealmRef, viewer: Pick<AuthUser, 'id' | 'role'> | null, clientGravatar: boolean, withProfiles: boolean): Promise<UserRecord[]> {
    const profileData = withProfiles ? profileDataOf(await this.profileFields.valuesOfUsers(users.map((u) => u.id))) : undefined;
    const realmHost = this.realms.hostnameOf(realm.subdomain);
    return users.map((user) => toUserRecord(user, { viewer, realmHost, clientGravatar, profileData }));
  }
}

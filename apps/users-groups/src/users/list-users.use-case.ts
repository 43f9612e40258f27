import { Injectable } from '@nestjs/common';
import type { ApiCommand, UserRecord, UsersGroups } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { profileDataOf, toUserRecord } from './user-record';

type Params = DecodedParams<typeof UsersGroups.listUsersParams>;

/** GET /users: every account of the organization (active or not), or those in `user_ids`. */
@Injectable()
export class ListUsers {
  constructor(
    private readonly users: UsersRepository,
    private readonly profileFields: ProfileFieldsRepository,
    private readonly realms: RealmDirectory,
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

    const profileData = params.include_custom_profile_fields ? profileDataOf(await this.profileFields.valuesOfUsers(users.map((u) => u.id))) : undefined;
    const realmHost = this.realms.hostnameOf(realm.subdomain);
    return {
      members: users.map((user) =>
        toUserRecord(user, { viewer, realmHost, clientGravatar: params.client_gravatar, profileData }),
      ),
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UserRecord, UsersGroups } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import type { UserRow } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { UserAccess } from './user-access';
import { UserLookup, type AccessRules } from './user-lookup';
import { profileDataOf, toUserRecord } from './user-record';

type ByIdParams = DecodedParams<typeof UsersGroups.getUserParams>;
type ByEmailParams = DecodedParams<typeof UsersGroups.getUserByEmailParams>;

/** Any account may be read, deactivated ones and bots included (Zulip's get_members_backend). */
const READ: AccessRules = { allowDeactivated: true, allowBots: true };

/**
 * GET /users/{user_id} and GET /users/{email}: one member record, formatted as GET /users
 * formats it (zerver/views/users.py get_members_backend, get_user_by_email). A user hidden from
 * the caller (UserAccess) is refused as Zulip's access_user_common refuses it.
 */
@Injectable()
export class GetUser {
  constructor(
    private readonly profileFields: ProfileFieldsRepository,
    private readonly lookup: UserLookup,
    private readonly realms: RealmDirectory,
    private readonly access: UserAccess,
  ) {}

  async byId({ realm, user, params }: UserCommand<ByIdParams>): Promise<{ user: UserRecord }> {
    const target = await this.lookup.byId(realm, params.user_id, READ);
    await this.admit(target, realm.id, user);
    return { user: await this.record(target, { realm, user, params }) };
  }

  async byEmail({ realm, user, params }: UserCommand<ByEmailParams>): Promise<{ user: UserRecord }> {
    const target = await this.lookup.byEmail(realm, user, params.email, READ);
    await this.admit(target, realm.id, user);
    return { user: await this.record(target, { realm, user, params }) };
  }

  private async admit(target: UserRow, realmId: number, viewer: UserCommand<unknown>['user']): Promise<void> {
    if ((await this.access.hiddenFrom(realmId, viewer, [target.id])).has(target.id)) throw badRequest('Insufficient permission');
  }

  private async record(
    target: UserRow,
    { realm, user, params }: Pick<UserCommand<ByIdParams | ByEmailParams>, 'realm' | 'user' | 'params'>,
  ): Promise<UserRecord> {
    const profileData = params.include_custom_profile_fields ? profileDataOf(await this.profileFields.valuesOfUsers([target.id])) : undefined;
    return toUserRecord(target, {
      viewer: user,
      realmHost: this.realms.hostnameOf(realm.subdomain),
      clientGravatar: params.client_gravatar,
      profileData,
    });
  }
}

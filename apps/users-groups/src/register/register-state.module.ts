import { Controller, Module } from '@nestjs/common';
import { Realtime, type UserRecord } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DataModule } from '../data/data.module';
import { RealmDirectory } from '../realms/realm-directory';
import { ListUsers } from '../users/list-users.use-case';
import { unknownUserRecord } from '../users/user-record';
import { UserAccess } from '../users/user-access';
import { UserGroupsModule } from '../groups/user-groups.module';
import { RegisterStateReader } from './register-state.reader';
import { BotRecords } from '../bots/bot-records';

@Controller()
export class RegisterStateHandler {
  constructor(
    private readonly reader: RegisterStateReader,
    private readonly listUsers: ListUsers,
    private readonly access: UserAccess,
    private readonly realms: RealmDirectory,
  ) {}

  @CommandHandler(Realtime.registerState.usersGroups)
  read(@Payload() payload: Realtime.RegisterStateRequest) {
    return this.reader.read(payload);
  }

  /** A page of the people the gateway caches per organization and viewer role. */
  @CommandHandler(Realtime.registerPeople)
  people(@Payload() { realm, viewerRole, clientGravatar, afterId, limit }: Realtime.RegisterPeopleRequest): Promise<Realtime.RegisterPeoplePage> {
    return this.listUsers.page(realm, viewerRole, clientGravatar, afterId, limit);
  }

  /** Whom the organization hides from this guest (UserAccess), as "Unknown user": for the gateway's cached people and messaging's direct messages. */
  @CommandHandler(Realtime.hiddenPeople)
  async hidden(@Payload() { realm, user, among }: Realtime.HiddenPeopleRequest): Promise<{ people: UserRecord[] }> {
    const shown = { host: this.realms.hostnameOf(realm.subdomain), url: realm.url };
    return { people: [...(await this.access.hiddenFrom(realm.id, user, among))].map((id) => unknownUserRecord(id, shown)) };
  }
}

/** The part of POST /register's initial state this service owns. */
@Module({
  imports: [DataModule, UserGroupsModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader, ListUsers, UserAccess, RealmDirectory, BotRecords],
})
export class RegisterStateModule {}

import { Controller, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Realtime } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { DataModule } from '../data/data.module';
import { RealmDirectory } from '../realms/realm-directory';
import { ListUsers } from '../users/list-users.use-case';
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

  /** Whom the organization hides from this guest (UserAccess), for the gateway to take out of the cached people. */
  @CommandHandler(Realtime.hiddenPeople)
  async hidden(@Payload() { realm, user }: Realtime.HiddenPeopleRequest): Promise<{ userIds: number[] }> {
    return { userIds: [...(await this.access.hiddenFrom(realm.id, user))] };
  }
}

/** The part of POST /register's initial state this service owns. */
@Module({
  imports: [DataModule, UserGroupsModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader, ListUsers, UserAccess, RealmDirectory, BotRecords],
})
export class RegisterStateModule {}

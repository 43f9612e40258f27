import { Controller, Injectable, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Realtime, type Presence } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { PresenceCoreModule } from '../core/core.module';
import { PeopleReadonly } from '../core/people.readonly';
import { isBlankStatus, toStatusRecord } from '../status/status-change';
import { StatusModule } from '../status/status.module';
import { UserStatusStore } from '../status/user-status.store';

/**
 * The part of POST /register's initial state presence owns: `user_status`, the statuses of the
 * organization's active users that show anything (Zulip's get_all_users_status_dict).
 */
@Injectable()
export class RegisterStateReader {
  constructor(
    private readonly store: UserStatusStore,
    private readonly people: PeopleReadonly,
  ) {}

  async read(request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    if (!Realtime.wants(request, 'user_status')) return {};
    const stored = await this.store.ofRealm(request.realm.id);
    const people = await this.people.byIds(request.realm, stored.map((status) => status.userId));
    const userStatus: Record<string, Presence.UserStatusRecord> = {};
    for (const status of stored) {
      const person = people.get(status.userId);
      if (!person?.isActive || isBlankStatus(status, person.settings.presence_enabled)) continue;
      userStatus[String(status.userId)] = toStatusRecord(status, person.settings.presence_enabled);
    }
    return { user_status: userStatus };
  }
}

@Controller()
export class RegisterStateHandler {
  constructor(private readonly reader: RegisterStateReader) {}

  @CommandHandler(Realtime.registerState.presence)
  read(@Payload() payload: Realtime.RegisterStateRequest) {
    return this.reader.read(payload);
  }
}

@Module({
  imports: [PresenceCoreModule, StatusModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader],
})
export class RegisterStateModule {}

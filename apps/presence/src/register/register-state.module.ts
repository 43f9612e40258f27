import { Controller, Injectable, Module } from '@nestjs/common';
import { Realtime, type Presence } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { PresenceCoreModule } from '../core/core.module';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';
import { UserStatusRepository } from '../data/user-status.repository';
import { PresenceFeatureModule } from '../presence/presence.module';
import { PresenceReader } from '../presence/presence-reader';
import { isBlankStatus, toStatusRecord } from '../status/status-change';
import { StatusModule } from '../status/status.module';

/**
 * The part of POST /register's initial state presence owns: `user_status`, the statuses of the
 * organization's active users that show anything (Zulip's get_all_users_status_dict), and
 * `presences`, `presence_last_update_id` and `server_timestamp` (fetch key `presence`: Zulip's
 * get_presences_for_realm with last_update_id -1, in the format slim_presence asks for).
 */
@Injectable()
export class RegisterStateReader {
  constructor(
    private readonly statuses: UserStatusRepository,
    private readonly people: PeopleReadonlyRepository,
    private readonly presence: PresenceReader,
  ) {}

  async read(request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    const [userStatus, presence] = await Promise.all([
      Realtime.wants(request, 'user_status') ? this.userStatus(request) : {},
      Realtime.wants(request, 'presence')
        ? this.presence.read(request.realm, {
            slim: request.slimPresence ?? false,
            lastUpdateId: -1,
            historyLimitDays: request.presenceHistoryLimitDays ?? null,
          })
        : {},
    ]);
    return { ...userStatus, ...presence };
  }

  private async userStatus(request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    const stored = await this.statuses.ofRealm(request.realm.id);
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
  imports: [PresenceCoreModule, StatusModule, PresenceFeatureModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader],
})
export class RegisterStateModule {}

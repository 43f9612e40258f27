import { Module } from '@nestjs/common';
import { PresenceCoreModule } from '../core/core.module';
import { RealmsReadonlyRepository } from '../data/realms.readonly.repository';
import { UserPresenceRepository } from '../data/user-presence.repository';
import { GetRealmPresence } from './get-realm-presence.use-case';
import { GetUserPresence } from './get-user-presence.use-case';
import { PresenceAnnouncer } from './presence-announcer';
import { PresenceFlushWorker } from './presence-flush.worker';
import { PresenceSettingConsumer } from './presence-setting.consumer';
import { PresencePeople } from './presence-people';
import { PresenceReader } from './presence-reader';
import { PresenceHandler } from './presence.handler';
import { PresenceStore } from './presence.store';
import { UpdatePresence } from './update-presence.use-case';

/** Presence: POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence, its flush and its presence_enabled follower. */
@Module({
  imports: [PresenceCoreModule],
  controllers: [PresenceHandler],
  providers: [
    UserPresenceRepository,
    RealmsReadonlyRepository,
    PresenceStore,
    PresencePeople,
    PresenceReader,
    PresenceAnnouncer,
    UpdatePresence,
    GetRealmPresence,
    GetUserPresence,
    PresenceFlushWorker,
    PresenceSettingConsumer,
  ],
  exports: [PresenceReader],
})
export class PresenceFeatureModule {}

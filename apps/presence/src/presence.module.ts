import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { PresenceFeatureModule } from './presence/presence.module';
import { RegisterStateModule } from './register/register-state.module';
import { StatusModule } from './status/status.module';
import { TypingModule } from './typing/typing.module';

/** The presence service: typing notifications, user status and presence. */
@Module({
  imports: [DbModule, TypingModule, StatusModule, PresenceFeatureModule, RegisterStateModule],
})
export class PresenceModule {}

import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { RegisterStateModule } from './register/register-state.module';
import { StatusModule } from './status/status.module';
import { TypingModule } from './typing/typing.module';

/** The presence service: typing notifications and user status (presence itself comes later). */
@Module({
  imports: [DbModule, TypingModule, StatusModule, RegisterStateModule],
})
export class PresenceModule {}

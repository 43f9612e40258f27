import { Controller, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Presence, Realtime, type PayloadOf } from '@teamchat/contracts';
import { DbModule } from '@teamchat/db';
import { CommandHandler } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { TypingModule } from './typing/typing.module';

// Scaffolding: replaced feature by feature (status/, register/).
@Controller()
class PendingHandlers {
  @CommandHandler(Presence.updateOwnStatus)
  own(@Payload() _payload: PayloadOf<typeof Presence.updateOwnStatus>) {
    throw badRequest('Not yet served');
  }
  @CommandHandler(Presence.updateUserStatus)
  other(@Payload() _payload: PayloadOf<typeof Presence.updateUserStatus>) {
    throw badRequest('Not yet served');
  }
  @CommandHandler(Presence.getUserStatus)
  get(@Payload() _payload: PayloadOf<typeof Presence.getUserStatus>) {
    throw badRequest('Not yet served');
  }
  @CommandHandler(Realtime.registerState.presence)
  state(@Payload() _payload: Realtime.RegisterStateRequest) {
    return {};
  }
}

/** The presence service: typing notifications, presence and user status. */
@Module({
  imports: [DbModule, TypingModule],
  controllers: [PendingHandlers],
})
export class PresenceModule {}

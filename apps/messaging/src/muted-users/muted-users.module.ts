import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { MuteUser } from './mute-user.use-case';
import { UnmuteUser } from './unmute-user.use-case';

@Controller()
export class MutedUsersHandler {
  constructor(
    private readonly muteUseCase: MuteUser,
    private readonly unmuteUseCase: UnmuteUser,
  ) {}

  @CommandHandler(Messaging.muteUser)
  mute(@Payload() payload: PayloadOf<typeof Messaging.muteUser>) {
    return this.muteUseCase.execute(payload);
  }

  @CommandHandler(Messaging.unmuteUser)
  unmute(@Payload() payload: PayloadOf<typeof Messaging.unmuteUser>) {
    return this.unmuteUseCase.execute(payload);
  }
}

/** Muted users: POST/DELETE /users/me/muted_users/{muted_user_id}. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [MutedUsersHandler],
  providers: [MuteUser, UnmuteUser],
})
export class MutedUsersModule {}

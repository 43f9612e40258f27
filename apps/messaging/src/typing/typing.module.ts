import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { TypingAudience } from './typing-audience.use-case';

@Controller()
export class TypingAudienceHandler {
  constructor(private readonly typingAudience: TypingAudience) {}

  @CommandHandler(Messaging.typingAudience)
  audience(@Payload() payload: PayloadOf<typeof Messaging.typingAudience>) {
    return this.typingAudience.execute(payload);
  }
}

/** What presence needs from messaging for channel typing notifications. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [TypingAudienceHandler],
  providers: [TypingAudience],
})
export class TypingModule {}

import { Controller, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';

// Scaffolding: replaced by the typing audience use case.
@Controller()
class TypingAudienceHandler {
  @CommandHandler(Messaging.typingAudience)
  audience(@Payload() _payload: PayloadOf<typeof Messaging.typingAudience>) {
    return { subscriberIds: [] };
  }
}

/** What presence needs from messaging for channel typing notifications. */
@Module({ controllers: [TypingAudienceHandler] })
export class TypingModule {}

import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Push, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { UnsubscribeMissedMessages } from './unsubscribe-missed-messages.use-case';

@Controller()
export class UnsubscribeHandler {
  constructor(private readonly useCase: UnsubscribeMissedMessages) {}

  @CommandHandler(Push.unsubscribeMissedMessages)
  unsubscribe(@Payload() payload: PayloadOf<typeof Push.unsubscribeMissedMessages>) {
    return this.useCase.execute(payload);
  }
}

import { Controller } from '@nestjs/common';
import { Push, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { UnsubscribeMissedMessages } from './unsubscribe-missed-messages.use-case';

@Controller()
export class UnsubscribeHandler {
  constructor(private readonly useCase: UnsubscribeMissedMessages) {}

  @CommandHandler(Push.unsubscribeMissedMessages)
  unsubscribe(@Payload() payload: PayloadOf<typeof Push.unsubscribeMissedMessages>) {
    return this.useCase.execute(payload);
  }
}

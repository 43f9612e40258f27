import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { SendTyping } from './send-typing.use-case';

@Controller()
export class TypingHandler {
  constructor(private readonly sendTyping: SendTyping) {}

  @CommandHandler(Presence.sendTyping)
  send(@Payload() payload: PayloadOf<typeof Presence.sendTyping>) {
    return this.sendTyping.execute(payload);
  }
}

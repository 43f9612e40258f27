import { Controller } from '@nestjs/common';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { SendEditTyping } from './send-edit-typing.use-case';
import { SendTyping } from './send-typing.use-case';

@Controller()
export class TypingHandler {
  constructor(
    private readonly sendTyping: SendTyping,
    private readonly sendEditTyping: SendEditTyping,
  ) {}

  @CommandHandler(Presence.sendTyping)
  send(@Payload() payload: PayloadOf<typeof Presence.sendTyping>) {
    return this.sendTyping.execute(payload);
  }

  @CommandHandler(Presence.sendEditTyping)
  edit(@Payload() payload: PayloadOf<typeof Presence.sendEditTyping>) {
    return this.sendEditTyping.execute(payload);
  }
}

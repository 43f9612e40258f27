import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Message routes, served by messaging. */
@Controller()
export class MessagesController {
  constructor(private readonly commands: CommandClient) {}

  @Route(Messaging.sendMessage)
  send(@ApiCommandOf(Messaging.sendMessage) command: PayloadOf<typeof Messaging.sendMessage>) {
    return this.commands.call(Messaging.sendMessage, command);
  }

  @Route(Messaging.getMessages)
  list(@ApiCommandOf(Messaging.getMessages) command: PayloadOf<typeof Messaging.getMessages>) {
    return this.commands.call(Messaging.getMessages, command);
  }
}

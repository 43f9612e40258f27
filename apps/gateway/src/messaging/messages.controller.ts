import { Controller, Get, Post } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';

/** Message routes, served by messaging. */
@Controller()
export class MessagesController {
  constructor(private readonly commands: CommandClient) {}

  @Post('messages')
  send(@ApiCommandOf(Messaging.sendMessage) command: PayloadOf<typeof Messaging.sendMessage>) {
    return this.commands.call(Messaging.sendMessage, command);
  }

  @Get('messages')
  list(@ApiCommandOf(Messaging.getMessages) command: PayloadOf<typeof Messaging.getMessages>) {
    return this.commands.call(Messaging.getMessages, command);
  }
}

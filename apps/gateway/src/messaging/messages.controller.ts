import { Controller } from '@nestjs/common';
import { CommandClient } from '@teamchat/platform';

/** Messages routes, served by messaging. */
@Controller()
export class MessagesController {
  constructor(private readonly commands: CommandClient) {}
}

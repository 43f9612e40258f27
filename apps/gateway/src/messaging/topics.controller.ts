import { Controller } from '@nestjs/common';
import { CommandClient } from '@teamchat/platform';

/** Topics routes, served by messaging. */
@Controller()
export class TopicsController {
  constructor(private readonly commands: CommandClient) {}
}

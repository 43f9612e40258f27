import { Controller } from '@nestjs/common';
import { CommandClient } from '@teamchat/platform';

/** Drafts routes, served by messaging. */
@Controller()
export class DraftsController {
  constructor(private readonly commands: CommandClient) {}
}

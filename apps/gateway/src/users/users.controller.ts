import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Routes served by users-groups: each decodes by the command's declaration and forwards. */
@Controller()
export class UsersController {
  constructor(private readonly commands: CommandClient) {}

  @Route(UsersGroups.fetchApiKey)
  fetchApiKey(@ApiCommandOf(UsersGroups.fetchApiKey) command: PayloadOf<typeof UsersGroups.fetchApiKey>) {
    return this.commands.call(UsersGroups.fetchApiKey, command);
  }

  @Route(UsersGroups.updateSettings)
  updateSettings(@ApiCommandOf(UsersGroups.updateSettings) command: PayloadOf<typeof UsersGroups.updateSettings>) {
    return this.commands.call(UsersGroups.updateSettings, command);
  }

  @Route(UsersGroups.listUsers)
  listUsers(@ApiCommandOf(UsersGroups.listUsers) command: PayloadOf<typeof UsersGroups.listUsers>) {
    return this.commands.call(UsersGroups.listUsers, command);
  }
}

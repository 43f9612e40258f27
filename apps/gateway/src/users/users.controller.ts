import { Controller, Get, Patch, Post } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Auth } from '../http/auth-mode.decorator';

/** Routes served by users-groups: each decodes by the command's declaration and forwards. */
@Controller()
export class UsersController {
  constructor(private readonly commands: CommandClient) {}

  @Post('fetch_api_key')
  @Auth('realm')
  fetchApiKey(@ApiCommandOf(UsersGroups.fetchApiKey) command: PayloadOf<typeof UsersGroups.fetchApiKey>) {
    return this.commands.call(UsersGroups.fetchApiKey, command);
  }

  @Patch('settings')
  updateSettings(@ApiCommandOf(UsersGroups.updateSettings) command: PayloadOf<typeof UsersGroups.updateSettings>) {
    return this.commands.call(UsersGroups.updateSettings, command);
  }

  @Get('users')
  @Auth('spectator')
  listUsers(@ApiCommandOf(UsersGroups.listUsers) command: PayloadOf<typeof UsersGroups.listUsers>) {
    return this.commands.call(UsersGroups.listUsers, command);
  }
}

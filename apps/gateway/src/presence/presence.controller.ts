import { Controller, Get, Post } from '@nestjs/common';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { ApiCommandWithPath } from '../http/path-params';

/** Typing and status routes, served by presence. `users/me/status` is declared before `users/:user_id/status`. */
@Controller()
export class PresenceController {
  constructor(private readonly commands: CommandClient) {}

  @Post('typing')
  typing(@ApiCommandOf(Presence.sendTyping) command: PayloadOf<typeof Presence.sendTyping>) {
    return this.commands.call(Presence.sendTyping, command);
  }

  @Post('users/me/status')
  updateOwnStatus(@ApiCommandOf(Presence.updateOwnStatus) command: PayloadOf<typeof Presence.updateOwnStatus>) {
    return this.commands.call(Presence.updateOwnStatus, command);
  }

  @Post('users/:user_id/status')
  updateUserStatus(@ApiCommandWithPath(Presence.updateUserStatus, 'user_id') command: PayloadOf<typeof Presence.updateUserStatus>) {
    return this.commands.call(Presence.updateUserStatus, command);
  }

  @Get('users/:user_id/status')
  getUserStatus(@ApiCommandWithPath(Presence.getUserStatus, 'user_id') command: PayloadOf<typeof Presence.getUserStatus>) {
    return this.commands.call(Presence.getUserStatus, command);
  }
}

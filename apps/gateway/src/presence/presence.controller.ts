import { Controller } from '@nestjs/common';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Typing and status routes, served by presence. `users/me/status` is declared before `users/:user_id/status`. */
@Controller()
export class PresenceController {
  constructor(private readonly commands: CommandClient) {}

  @Route(Presence.sendTyping)
  typing(@ApiCommandOf(Presence.sendTyping) command: PayloadOf<typeof Presence.sendTyping>) {
    return this.commands.call(Presence.sendTyping, command);
  }

  @Route(Presence.updateOwnStatus)
  updateOwnStatus(@ApiCommandOf(Presence.updateOwnStatus) command: PayloadOf<typeof Presence.updateOwnStatus>) {
    return this.commands.call(Presence.updateOwnStatus, command);
  }

  @Route(Presence.updateUserStatus)
  updateUserStatus(@ApiCommandOf(Presence.updateUserStatus) command: PayloadOf<typeof Presence.updateUserStatus>) {
    return this.commands.call(Presence.updateUserStatus, command);
  }

  @Route(Presence.getUserStatus)
  getUserStatus(@ApiCommandOf(Presence.getUserStatus) command: PayloadOf<typeof Presence.getUserStatus>) {
    return this.commands.call(Presence.getUserStatus, command);
  }
}

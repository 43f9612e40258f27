import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { NotificationBot } from './notification-bot.use-case';

@Controller()
export class SystemBotsHandler {
  constructor(private readonly notificationBot: NotificationBot) {}

  @CommandHandler(UsersGroups.notificationBot)
  notification(@Payload() payload: PayloadOf<typeof UsersGroups.notificationBot>) {
    return this.notificationBot.execute(payload);
  }
}

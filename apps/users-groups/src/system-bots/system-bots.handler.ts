import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { NotificationBot } from './notification-bot.use-case';

@Controller()
export class SystemBotsHandler {
  constructor(private readonly notificationBot: NotificationBot) {}

  @CommandHandler(UsersGroups.notificationBot)
  notification(@Payload() payload: PayloadOf<typeof UsersGroups.notificationBot>) {
    return this.notificationBot.execute(payload);
  }
}

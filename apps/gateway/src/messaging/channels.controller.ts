import { Controller, Delete, Get, Post } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';

/** Channel and subscription routes, served by messaging. */
@Controller()
export class ChannelsController {
  constructor(private readonly commands: CommandClient) {}

  @Post('users/me/subscriptions')
  subscribe(@ApiCommandOf(Messaging.subscribe) command: PayloadOf<typeof Messaging.subscribe>) {
    return this.commands.call(Messaging.subscribe, command);
  }

  @Delete('users/me/subscriptions')
  unsubscribe(@ApiCommandOf(Messaging.unsubscribe) command: PayloadOf<typeof Messaging.unsubscribe>) {
    return this.commands.call(Messaging.unsubscribe, command);
  }

  @Get('users/me/subscriptions')
  listSubscriptions(@ApiCommandOf(Messaging.listSubscriptions) command: PayloadOf<typeof Messaging.listSubscriptions>) {
    return this.commands.call(Messaging.listSubscriptions, command);
  }

  @Post('users/me/subscriptions/properties')
  updateProperties(
    @ApiCommandOf(Messaging.updateSubscriptionProperties) command: PayloadOf<typeof Messaging.updateSubscriptionProperties>,
  ) {
    return this.commands.call(Messaging.updateSubscriptionProperties, command);
  }

  @Get('streams')
  listChannels(@ApiCommandOf(Messaging.listChannels) command: PayloadOf<typeof Messaging.listChannels>) {
    return this.commands.call(Messaging.listChannels, command);
  }
}

import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Channel and subscription routes, served by messaging. */
@Controller()
export class ChannelsController {
  constructor(private readonly commands: CommandClient) {}

  @Route(Messaging.subscribe)
  subscribe(@ApiCommandOf(Messaging.subscribe) command: PayloadOf<typeof Messaging.subscribe>) {
    return this.commands.call(Messaging.subscribe, command);
  }

  @Route(Messaging.unsubscribe)
  unsubscribe(@ApiCommandOf(Messaging.unsubscribe) command: PayloadOf<typeof Messaging.unsubscribe>) {
    return this.commands.call(Messaging.unsubscribe, command);
  }

  @Route(Messaging.listSubscriptions)
  listSubscriptions(@ApiCommandOf(Messaging.listSubscriptions) command: PayloadOf<typeof Messaging.listSubscriptions>) {
    return this.commands.call(Messaging.listSubscriptions, command);
  }

  @Route(Messaging.updateSubscriptionProperties)
  updateProperties(
    @ApiCommandOf(Messaging.updateSubscriptionProperties) command: PayloadOf<typeof Messaging.updateSubscriptionProperties>,
  ) {
    return this.commands.call(Messaging.updateSubscriptionProperties, command);
  }

  @Route(Messaging.listChannels)
  listChannels(@ApiCommandOf(Messaging.listChannels) command: PayloadOf<typeof Messaging.listChannels>) {
    return this.commands.call(Messaging.listChannels, command);
  }
}

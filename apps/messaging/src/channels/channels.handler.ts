import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { ListChannels } from './list-channels.use-case';
import { ListSubscriptions } from './list-subscriptions.use-case';
import { Subscribe } from './subscribe.use-case';
import { Unsubscribe } from './unsubscribe.use-case';
import { UpdateSubscriptionProperties } from './update-subscription-properties.use-case';

@Controller()
export class ChannelsHandler {
  constructor(
    private readonly subscribeUseCase: Subscribe,
    private readonly unsubscribeUseCase: Unsubscribe,
    private readonly listSubscriptionsUseCase: ListSubscriptions,
    private readonly listChannelsUseCase: ListChannels,
    private readonly updatePropertiesUseCase: UpdateSubscriptionProperties,
  ) {}

  @CommandHandler(Messaging.subscribe)
  subscribe(@Payload() payload: PayloadOf<typeof Messaging.subscribe>) {
    return this.subscribeUseCase.execute(payload);
  }

  @CommandHandler(Messaging.unsubscribe)
  unsubscribe(@Payload() payload: PayloadOf<typeof Messaging.unsubscribe>) {
    return this.unsubscribeUseCase.execute(payload);
  }

  @CommandHandler(Messaging.listSubscriptions)
  listSubscriptions(@Payload() payload: PayloadOf<typeof Messaging.listSubscriptions>) {
    return this.listSubscriptionsUseCase.execute(payload);
  }

  @CommandHandler(Messaging.listChannels)
  listChannels(@Payload() payload: PayloadOf<typeof Messaging.listChannels>) {
    return this.listChannelsUseCase.execute(payload);
  }

  @CommandHandler(Messaging.updateSubscriptionProperties)
  updateProperties(@Payload() payload: PayloadOf<typeof Messaging.updateSubscriptionProperties>) {
    return this.updatePropertiesUseCase.execute(payload);
  }
}

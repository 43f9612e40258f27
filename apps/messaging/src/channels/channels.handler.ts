import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateChannel } from './create-channel.use-case';
import { GetChannelEmailAddress } from './get-channel-email-address.use-case';
import { GetChannelId } from './get-channel-id.use-case';
import { GetChannelSubscribers } from './get-channel-subscribers.use-case';
import { GetSubscriptionStatus } from './get-subscription-status.use-case';
import { ListChannels } from './list-channels.use-case';
import { ListSubscriptions } from './list-subscriptions.use-case';
import { Subscribe } from './subscribe.use-case';
import { Unsubscribe } from './unsubscribe.use-case';
import { UpdateSubscriptionProperties } from './update-subscription-properties.use-case';
import { UpdateSubscriptions } from './update-subscriptions.use-case';

@Controller()
export class ChannelsHandler {
  constructor(
    private readonly subscribeUseCase: Subscribe,
    private readonly unsubscribeUseCase: Unsubscribe,
    private readonly listSubscriptionsUseCase: ListSubscriptions,
    private readonly listChannelsUseCase: ListChannels,
    private readonly updatePropertiesUseCase: UpdateSubscriptionProperties,
    private readonly createChannelUseCase: CreateChannel,
    private readonly getChannelIdUseCase: GetChannelId,
    private readonly getSubscribersUseCase: GetChannelSubscribers,
    private readonly getSubscriptionStatusUseCase: GetSubscriptionStatus,
    private readonly getEmailAddressUseCase: GetChannelEmailAddress,
    private readonly updateSubscriptionsUseCase: UpdateSubscriptions,
  ) {}

  @CommandHandler(Messaging.createChannel)
  createChannel(@Payload() payload: PayloadOf<typeof Messaging.createChannel>) {
    return this.createChannelUseCase.execute(payload);
  }

  @CommandHandler(Messaging.getChannelId)
  getChannelId(@Payload() payload: PayloadOf<typeof Messaging.getChannelId>) {
    return this.getChannelIdUseCase.execute(payload);
  }

  @CommandHandler(Messaging.getChannelSubscribers)
  getSubscribers(@Payload() payload: PayloadOf<typeof Messaging.getChannelSubscribers>) {
    return this.getSubscribersUseCase.execute(payload);
  }

  @CommandHandler(Messaging.getSubscriptionStatus)
  getSubscriptionStatus(@Payload() payload: PayloadOf<typeof Messaging.getSubscriptionStatus>) {
    return this.getSubscriptionStatusUseCase.execute(payload);
  }

  @CommandHandler(Messaging.getChannelEmailAddress)
  getEmailAddress(@Payload() payload: PayloadOf<typeof Messaging.getChannelEmailAddress>) {
    return this.getEmailAddressUseCase.execute(payload);
  }

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

  @CommandHandler(Messaging.updateSubscriptions)
  updateSubscriptions(@Payload() payload: PayloadOf<typeof Messaging.updateSubscriptions>) {
    return this.updateSubscriptionsUseCase.execute(payload);
  }
}

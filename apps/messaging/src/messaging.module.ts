import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { ChannelsHandler } from './channels/channels.handler';
import { ChannelStatsReader } from './channels/channel-stats';
import { ListChannels } from './channels/list-channels.use-case';
import { ListSubscriptions } from './channels/list-subscriptions.use-case';
import { Subscribe } from './channels/subscribe.use-case';
import { Unsubscribe } from './channels/unsubscribe.use-case';
import { UpdateSubscriptionProperties } from './channels/update-subscription-properties.use-case';
import { UserDirectoryReadonly } from './users/user-directory.readonly';

/**
 * The messaging service: channels, subscriptions and their properties; messages, topics, read
 * state, drafts and topic deletion arrive in the next steps.
 */
@Module({
  imports: [DbModule],
  controllers: [ChannelsHandler],
  providers: [UserDirectoryReadonly, ChannelStatsReader, Subscribe, Unsubscribe, ListSubscriptions, ListChannels, UpdateSubscriptionProperties],
})
export class MessagingModule {}

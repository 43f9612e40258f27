import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { RegisterStateModule } from './register/register-state.module';
import { ChannelsHandler } from './channels/channels.handler';
import { ArchiveChannel } from './channel-administration/archive-channel.use-case';
import { ChannelPermissions } from './channel-administration/channel-permissions';
import { ChannelAdministrationHandler } from './channel-administration/channel-administration.handler';
import { GetChannel } from './channel-administration/get-channel.use-case';
import { UpdateChannel } from './channel-administration/update-channel.use-case';
import { ChannelCreation } from './channels/channel-creation';
import { ChannelStatsReader } from './channels/channel-stats';
import { CreateChannel } from './channels/create-channel.use-case';
import { GetChannelEmailAddress } from './channels/get-channel-email-address.use-case';
import { GetChannelId } from './channels/get-channel-id.use-case';
import { GetChannelSubscribers } from './channels/get-channel-subscribers.use-case';
import { GetSubscriptionStatus } from './channels/get-subscription-status.use-case';
import { AddDefaultChannel } from './default-channels/add-default-channel.use-case';
import { DefaultChannelsHandler } from './default-channels/default-channels.handler';
import { RemoveDefaultChannel } from './default-channels/remove-default-channel.use-case';
import { SubscribeToDefaultChannels } from './default-channels/subscribe-to-default-channels.use-case';
import { SubscribeNewUser } from './default-channels/subscribe-new-user.use-case';
import { CheckInviteChannels } from './default-channels/check-invite-channels.use-case';
import { ListChannels } from './channels/list-channels.use-case';
import { ListSubscriptions } from './channels/list-subscriptions.use-case';
import { Subscribe } from './channels/subscribe.use-case';
import { Unsubscribe } from './channels/unsubscribe.use-case';
import { UpdateSubscriptionProperties } from './channels/update-subscription-properties.use-case';
import { UpdateSubscriptions } from './channels/update-subscriptions.use-case';
import { ChannelFoldersModule } from './channel-folders/channel-folders.module';
import { MessagingCoreModule } from './core/core.module';
import { DraftsModule } from './drafts/drafts.module';
import { SavedSnippetsModule } from './saved-snippets/saved-snippets.module';
import { LinkifiersModule } from './linkifiers/linkifiers.module';
import { MutedUsersModule } from './muted-users/muted-users.module';
import { AlertWordsModule } from './alert-words/alert-words.module';
import { ModerationModule } from './moderation/moderation.module';
import { MessageActionsModule } from './message-actions/message-actions.module';
import { MessagesModule } from './messages/messages.module';
import { TopicsModule } from './topics/topics.module';
import { TypingModule } from './typing/typing.module';
import { WidgetsModule } from './widgets/widgets.module';
import { OutgoingWebhooksModule } from './outgoing-webhooks/outgoing-webhooks.module';

/**
 * The messaging service: channels and subscriptions (here), messages, topics and read state,
 * topic deletion, drafts, channel folders (in their feature modules).
 */
@Module({
  imports: [DbModule, RegisterStateModule, MessagingCoreModule, MessagesModule, MessageActionsModule, TopicsModule, DraftsModule, SavedSnippetsModule, LinkifiersModule, MutedUsersModule, AlertWordsModule, ModerationModule, TypingModule, ChannelFoldersModule, WidgetsModule, OutgoingWebhooksModule],
  controllers: [ChannelsHandler, ChannelAdministrationHandler, DefaultChannelsHandler],
  providers: [
    ChannelStatsReader,
    Subscribe,
    Unsubscribe,
    ListSubscriptions,
    ListChannels,
    UpdateSubscriptionProperties,
    UpdateSubscriptions,
    ChannelPermissions,
    GetChannel,
    UpdateChannel,
    ArchiveChannel,
    ChannelCreation,
    CreateChannel,
    GetChannelId,
    GetChannelSubscribers,
    GetSubscriptionStatus,
    GetChannelEmailAddress,
    AddDefaultChannel,
    RemoveDefaultChannel,
    SubscribeToDefaultChannels,
    SubscribeNewUser,
    CheckInviteChannels,
  ],
})
export class MessagingModule {}

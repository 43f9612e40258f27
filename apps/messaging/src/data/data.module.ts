import { Module } from '@nestjs/common';
import { ChannelFoldersRepository } from './channel-folders.repository';
import { ChannelStatsRepository } from './channel-stats.repository';
import { ChannelsRepository } from './channels.repository';
import { BotServicesReadonlyRepository } from './bot-services.readonly.repository';
import { CustomEmojiReadonlyRepository } from './custom-emoji.readonly.repository';
import { EditHistoryRepository } from './edit-history.repository';
import { DraftsRepository } from './drafts.repository';
import { SavedSnippetsRepository } from './saved-snippets.repository';
import { LinkifiersRepository } from './linkifiers.repository';
import { MutedUsersRepository } from './muted-users.repository';
import { AlertWordsRepository } from './alert-words.repository';
import { DirectMessageGroupsRepository } from './direct-message-groups.repository';
import { GroupsReadonlyRepository } from './groups.readonly.repository';
import { MemberProfilesReadonlyRepository } from './member-profiles.readonly.repository';
import { MessageFlagsRepository } from './message-flags.repository';
import { MessagesRepository } from './messages.repository';
import { ReactionsRepository } from './reactions.repository';
import { RealmsReadonlyRepository } from './realms.readonly.repository';
import { SubmessagesRepository } from './submessages.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { TopicsRepository } from './topics.repository';
import { Transactions } from './transactions';
import { UsersReadonlyRepository } from './users.readonly.repository';

const REPOSITORIES = [
  Transactions,
  ChannelsRepository,
  ChannelStatsRepository,
  ChannelFoldersRepository,
  SubscriptionsRepository,
  MessagesRepository,
  MessageFlagsRepository,
  ReactionsRepository,
  SubmessagesRepository,
  TopicsRepository,
  DirectMessageGroupsRepository,
  EditHistoryRepository,
  DraftsRepository,
  SavedSnippetsRepository,
  LinkifiersRepository,
  MutedUsersRepository,
  AlertWordsRepository,
  UsersReadonlyRepository,
  MemberProfilesReadonlyRepository,
  GroupsReadonlyRepository,
  RealmsReadonlyRepository,
  BotServicesReadonlyRepository,
  CustomEmojiReadonlyRepository,
];

/** Messaging's repositories: the only code that reaches Postgres (one per aggregate; `.readonly` for other services' tables). */
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class MessagingDataModule {}

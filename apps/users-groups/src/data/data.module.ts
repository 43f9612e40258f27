import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { BotsRepository } from './bots.repository';
import { ChannelsReadonlyRepository } from './channels.readonly.repository';
import { CredentialsRepository } from './credentials.repository';
import { CustomEmojiRepository } from './custom-emoji.repository';
import { EmailChangesRepository } from './email-changes.repository';
import { GroupMembershipRepository } from './group-membership.repository';
import { InvitesRepository } from './invites.repository';
import { NavigationViewsRepository } from './navigation-views.repository';
import { OrganizationsRepository } from './organizations.repository';
import { RealmSettingsRepository } from './realm-settings.repository';
import { ProfileFieldsRepository } from './profile-fields.repository';
import { SettingsRepository } from './settings.repository';
import { Transactions } from './transactions';
import { UserGroupsRepository } from './user-groups.repository';
import { UserAccessReadonlyRepository } from './user-access.readonly.repository';
import { UserMessagesReadonlyRepository } from './user-messages.readonly.repository';
import { UsersRepository } from './users.repository';

const REPOSITORIES = [
  OrganizationsRepository,
  RealmSettingsRepository,
  UsersRepository,
  CredentialsRepository,
  UserGroupsRepository,
  GroupMembershipRepository,
  SettingsRepository,
  NavigationViewsRepository,
  ProfileFieldsRepository,
  EmailChangesRepository,
  InvitesRepository,
  CustomEmojiRepository,
  UserMessagesReadonlyRepository,
  UserAccessReadonlyRepository,
  BotsRepository,
  ChannelsReadonlyRepository,
  Transactions,
];

/** Users-groups' data layer: the one way its use cases reach Postgres. */
@Module({
  imports: [DbModule],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class DataModule {}

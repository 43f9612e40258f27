import { Module } from '@nestjs/common';
import { VideoCallsModule } from './video-calls/video-calls.module';
import { MailQueue, MailWorker, Mailer } from '@teamchat/platform';
import { DataModule } from './data/data.module';
import { RegisterStateModule } from './register/register-state.module';
import { UserGroupsModule } from './groups/user-groups.module';
import { CustomEmojiModule } from './custom-emoji/custom-emoji.module';
import { AuthHandler } from './auth/auth.handler';
import { Authenticate } from './auth/authenticate.use-case';
import { FetchApiKey } from './auth/fetch-api-key.use-case';
import { PASSWORD_RULES } from './auth/passwords';
import { CreateOrganization } from './organizations/create-organization.use-case';
import { RealmDirectory } from './realms/realm-directory';
import { AccountCredentials } from './users/account-credentials.use-case';
import { CreateUser } from './users/create-user.use-case';
import { ListUsers } from './users/list-users.use-case';
import { UsersHandler } from './users/users.handler';
import { UserLookup } from './users/user-lookup';
import { GetUser } from './users/get-user.use-case';
import { UserAccess } from './users/user-access';
import { UserCreatedEvents } from './users/user-created-events';
import { SubscriptionAccessConsumer } from './users/subscription-access.consumer';
import { GetOwnUser } from './users/get-own-user.use-case';
import { UpdateUser } from './users/update-user.use-case';
import { DeactivateUser } from './users/deactivate-user.use-case';
import { DeactivateOwnUser } from './users/deactivate-own-user.use-case';
import { AddUser } from './users/add-user.use-case';
import { ReactivateUser } from './users/reactivate-user.use-case';
import { SettingsHandler } from './settings/settings.handler';
import { UpdateSettings } from './settings/update-settings.use-case';
import { SetPresenceEnabled } from './settings/set-presence-enabled.use-case';
import { UnsubscribeMissedMessageEmails } from './settings/unsubscribe-missed-message-emails.use-case';
import { NavigationViewsHandler } from './navigation-views/navigation-views.handler';
import { ProfileFieldsModule } from './profile-fields/profile-fields.module';
import { ListNavigationViews } from './navigation-views/list-navigation-views.use-case';
import { AddNavigationView } from './navigation-views/add-navigation-view.use-case';
import { EditNavigationView } from './navigation-views/edit-navigation-view.use-case';
import { RemoveNavigationView } from './navigation-views/remove-navigation-view.use-case';

import { UpdateRealmUserSettingsDefaults } from './settings/update-realm-user-settings-defaults.use-case';
import { PasswordAttempts } from './auth/password-attempts';
import { ConfirmEmailChange } from './email-changes/confirm-email-change.use-case';
import { EmailChangeRequests } from './email-changes/email-change-requests';
import { EmailChangesHandler } from './email-changes/email-changes.handler';
import { NotificationBot } from './system-bots/notification-bot.use-case';
import { SystemBotsHandler } from './system-bots/system-bots.handler';
import { BotsHandler } from './bots/bots.handler';
import { RegenerateApiKey } from './auth/regenerate-api-key.use-case';
import { AddBot } from './bots/add-bot.use-case';
import { ListBots } from './bots/list-bots.use-case';
import { UpdateBot } from './bots/update-bot.use-case';
import { DeactivateBot } from './bots/deactivate-bot.use-case';
import { RegenerateBotApiKey } from './bots/regenerate-bot-api-key.use-case';
import { BotAccess, BotCreationPolicy } from './bots/bot-rules';
import { BotRecords } from './bots/bot-records';
import { BotActivityEvents } from './bots/bot-activity-events';
import { INVITES, InvitesHandler } from './invites/invites.providers';
import { REALM_SETTINGS_PROVIDERS, RealmSettingsHandler } from './realm-settings/realm-settings.handler';
import { RealmGroupSettings } from './realm-settings/realm-group-settings';

/** One user and what administrators change about users (GET/PATCH /users/{user_id|email}, GET /users/me, deactivation). */
const USER_ADMINISTRATION = [UserLookup, UserAccess, UserCreatedEvents, SubscriptionAccessConsumer, GetUser, GetOwnUser, UpdateUser, DeactivateUser, ReactivateUser];

/** Bots (POST/GET /bots, PATCH/DELETE /bots/{bot_id}, the bot's key) and the rules user administration shares with them. */
const BOTS = [RegenerateApiKey, AddBot, ListBots, UpdateBot, DeactivateBot, RegenerateBotApiKey, BotAccess, BotCreationPolicy, BotRecords, BotActivityEvents];

/** The users-groups service: organizations, users, roles, API keys, passwords, settings. */
@Module({
  imports: [DataModule, RegisterStateModule, UserGroupsModule, CustomEmojiModule, ProfileFieldsModule, VideoCallsModule],
  controllers: [AuthHandler, UsersHandler, SettingsHandler, NavigationViewsHandler, EmailChangesHandler, SystemBotsHandler, BotsHandler, InvitesHandler, RealmSettingsHandler],
  providers: [
    PASSWORD_RULES,
    UpdateSettings,
    SetPresenceEnabled,
    UnsubscribeMissedMessageEmails,
    UpdateRealmUserSettingsDefaults,
    Mailer,
    MailQueue,
    MailWorker,
    PasswordAttempts,
    EmailChangeRequests,
    ConfirmEmailChange,
    RealmDirectory,
    Authenticate,
    FetchApiKey,
    ListUsers,
    CreateUser,
    AddUser,
    DeactivateOwnUser,
    CreateOrganization,
    AccountCredentials,
    ListNavigationViews,
    AddNavigationView,
    EditNavigationView,
    RemoveNavigationView,
    ...USER_ADMINISTRATION,
    ...BOTS,
    NotificationBot,
    ...INVITES,
    ...REALM_SETTINGS_PROVIDERS,
    RealmGroupSettings,
  ],
  exports: [RealmDirectory, CreateUser, CreateOrganization, AccountCredentials],
})
export class UsersGroupsModule {}

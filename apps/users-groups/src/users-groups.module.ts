import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { Mailer } from '@teamchat/platform';
import { RegisterStateModule } from './register/register-state.module';
import { AuthHandler } from './auth/auth.handler';
import { Authenticate } from './auth/authenticate.use-case';
import { FetchApiKey } from './auth/fetch-api-key.use-case';
import { CreateOrganization } from './organizations/create-organization.use-case';
import { RealmDirectory } from './realms/realm-directory';
import { AccountCredentials } from './users/account-credentials.use-case';
import { CreateUser } from './users/create-user.use-case';
import { ListUsers } from './users/list-users.use-case';
import { UsersHandler } from './users/users.handler';
import { SettingsHandler } from './settings/settings.handler';
import { UpdateSettings } from './settings/update-settings.use-case';
import { SetPresenceEnabled } from './settings/set-presence-enabled.use-case';
import { UpdateRealmUserSettingsDefaults } from './settings/update-realm-user-settings-defaults.use-case';
import { PasswordAttempts } from './auth/password-attempts';
import { ConfirmEmailChange } from './email-changes/confirm-email-change.use-case';
import { EmailChangeRequests } from './email-changes/email-change-requests';
import { EmailChangesHandler } from './email-changes/email-changes.handler';

/** The users-groups service: organizations, users, roles, API keys, passwords, settings. */
@Module({
  imports: [DbModule, RegisterStateModule],
  controllers: [AuthHandler, UsersHandler, SettingsHandler, EmailChangesHandler],
  providers: [UpdateSettings, SetPresenceEnabled, UpdateRealmUserSettingsDefaults, Mailer, PasswordAttempts, EmailChangeRequests, ConfirmEmailChange, RealmDirectory, Authenticate, FetchApiKey, ListUsers, CreateUser, CreateOrganization, AccountCredentials],
  exports: [RealmDirectory, CreateUser, CreateOrganization, AccountCredentials],
})
export class UsersGroupsModule {}

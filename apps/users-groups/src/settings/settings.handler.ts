import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { SetPresenceEnabled } from './set-presence-enabled.use-case';
import { UnsubscribeMissedMessageEmails } from './unsubscribe-missed-message-emails.use-case';
import { UpdateRealmUserSettingsDefaults } from './update-realm-user-settings-defaults.use-case';
import { UpdateSettings } from './update-settings.use-case';

@Controller()
export class SettingsHandler {
  constructor(
    private readonly updateSettings: UpdateSettings,
    private readonly setPresenceEnabledUseCase: SetPresenceEnabled,
    private readonly updateDefaults: UpdateRealmUserSettingsDefaults,
    private readonly unsubscribeUseCase: UnsubscribeMissedMessageEmails,
  ) {}

  @CommandHandler(UsersGroups.updateRealmUserSettingsDefaults)
  updateRealmDefaults(@Payload() payload: PayloadOf<typeof UsersGroups.updateRealmUserSettingsDefaults>) {
    return this.updateDefaults.execute(payload);
  }

  @CommandHandler(UsersGroups.updateSettings)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateSettings>) {
    return this.updateSettings.execute(payload);
  }

  @CommandHandler(UsersGroups.unsubscribeMissedMessageEmails)
  unsubscribeMissedMessageEmails(@Payload() payload: PayloadOf<typeof UsersGroups.unsubscribeMissedMessageEmails>) {
    return this.unsubscribeUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.setPresenceEnabled)
  setPresenceEnabled(@Payload() payload: PayloadOf<typeof UsersGroups.setPresenceEnabled>) {
    return this.setPresenceEnabledUseCase.execute(payload);
  }
}

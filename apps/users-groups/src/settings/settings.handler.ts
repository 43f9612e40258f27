import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { UpdateSettings } from './update-settings.use-case';

@Controller()
export class SettingsHandler {
  constructor(private readonly updateSettings: UpdateSettings) {}

  @CommandHandler(UsersGroups.updateSettings)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateSettings>) {
    return this.updateSettings.execute(payload);
  }
}

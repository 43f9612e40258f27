import { Controller } from '@nestjs/common';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { GetUserStatus } from './get-user-status.use-case';
import { UpdateOwnStatus } from './update-own-status.use-case';
import { UpdateUserStatus } from './update-user-status.use-case';

@Controller()
export class StatusHandler {
  constructor(
    private readonly updateOwnUseCase: UpdateOwnStatus,
    private readonly updateUserUseCase: UpdateUserStatus,
    private readonly getUseCase: GetUserStatus,
  ) {}

  @CommandHandler(Presence.updateOwnStatus)
  updateOwn(@Payload() payload: PayloadOf<typeof Presence.updateOwnStatus>) {
    return this.updateOwnUseCase.execute(payload);
  }

  @CommandHandler(Presence.updateUserStatus)
  updateUser(@Payload() payload: PayloadOf<typeof Presence.updateUserStatus>) {
    return this.updateUserUseCase.execute(payload);
  }

  @CommandHandler(Presence.getUserStatus)
  get(@Payload() payload: PayloadOf<typeof Presence.getUserStatus>) {
    return this.getUseCase.execute(payload);
  }
}

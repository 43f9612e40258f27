import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ConfirmEmailChange } from './confirm-email-change.use-case';

@Controller()
export class EmailChangesHandler {
  constructor(private readonly confirmEmailChange: ConfirmEmailChange) {}

  @CommandHandler(UsersGroups.confirmEmailChange)
  confirm(@Payload() payload: PayloadOf<typeof UsersGroups.confirmEmailChange>) {
    return this.confirmEmailChange.execute(payload);
  }
}

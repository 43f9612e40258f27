import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler } from '@teamchat/platform';
import { ListUsers } from './list-users.use-case';

@Controller()
export class UsersHandler {
  constructor(private readonly listUsers: ListUsers) {}

  @CommandHandler(UsersGroups.listUsers)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listUsers>) {
    return this.listUsers.execute(payload);
  }
}

import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { AddUser } from './add-user.use-case';
import { DeactivateOwnUser } from './deactivate-own-user.use-case';
import { DeactivateUser } from './deactivate-user.use-case';
import { GetOwnUser } from './get-own-user.use-case';
import { GetUser } from './get-user.use-case';
import { ListUsers } from './list-users.use-case';
import { ReactivateUser } from './reactivate-user.use-case';
import { UpdateUser } from './update-user.use-case';

@Controller()
export class UsersHandler {
  constructor(
    private readonly listUsers: ListUsers,
    private readonly getUser: GetUser,
    private readonly getOwnUser: GetOwnUser,
    private readonly updateUser: UpdateUser,
    private readonly deactivateUser: DeactivateUser,
    private readonly reactivateUser: ReactivateUser,
    private readonly deactivateOwnUser: DeactivateOwnUser,
    private readonly addUser: AddUser,
  ) {}

  @CommandHandler(UsersGroups.listUsers)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listUsers>) {
    return this.listUsers.execute(payload);
  }

  @CommandHandler(UsersGroups.getOwnUser)
  own(@Payload() payload: PayloadOf<typeof UsersGroups.getOwnUser>) {
    return this.getOwnUser.execute(payload);
  }

  @CommandHandler(UsersGroups.getUser)
  get(@Payload() payload: PayloadOf<typeof UsersGroups.getUser>) {
    return this.getUser.byId(payload);
  }

  @CommandHandler(UsersGroups.getUserByEmail)
  getByEmail(@Payload() payload: PayloadOf<typeof UsersGroups.getUserByEmail>) {
    return this.getUser.byEmail(payload);
  }

  @CommandHandler(UsersGroups.updateUser)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateUser>) {
    return this.updateUser.byId(payload);
  }

  @CommandHandler(UsersGroups.updateUserByEmail)
  updateByEmail(@Payload() payload: PayloadOf<typeof UsersGroups.updateUserByEmail>) {
    return this.updateUser.byEmail(payload);
  }

  @CommandHandler(UsersGroups.deactivateUser)
  deactivate(@Payload() payload: PayloadOf<typeof UsersGroups.deactivateUser>) {
    return this.deactivateUser.execute(payload);
  }

  @CommandHandler(UsersGroups.reactivateUser)
  reactivate(@Payload() payload: PayloadOf<typeof UsersGroups.reactivateUser>) {
    return this.reactivateUser.execute(payload);
  }

  @CommandHandler(UsersGroups.deactivateOwnUser)
  deactivateOwn(@Payload() payload: PayloadOf<typeof UsersGroups.deactivateOwnUser>) {
    return this.deactivateOwnUser.execute(payload);
  }

  @CommandHandler(UsersGroups.createUser)
  create(@Payload() payload: PayloadOf<typeof UsersGroups.createUser>) {
    return this.addUser.execute(payload);
  }
}

import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ChangeGroupMembership } from './change-group-membership.use-case';
import { CreateUserGroup } from './create-user-group.use-case';
import { DeactivateUserGroup } from './deactivate-user-group.use-case';
import { ListUserGroups } from './list-user-groups.use-case';
import { ReadGroupMembership } from './read-group-membership.use-case';
import { ResolveGroupSetting } from './resolve-group-setting.use-case';
import { UpdateUserGroup } from './update-user-group.use-case';

@Controller()
export class UserGroupsHandler {
  constructor(
    private readonly createUserGroup: CreateUserGroup,
    private readonly listUserGroups: ListUserGroups,
    private readonly updateUserGroup: UpdateUserGroup,
    private readonly deactivateUserGroup: DeactivateUserGroup,
    private readonly changeMembership: ChangeGroupMembership,
    private readonly readMembership: ReadGroupMembership,
    private readonly resolveGroupSetting: ResolveGroupSetting,
  ) {}

  @CommandHandler(UsersGroups.resolveGroupSetting)
  resolveSetting(@Payload() payload: PayloadOf<typeof UsersGroups.resolveGroupSetting>) {
    return this.resolveGroupSetting.execute(payload);
  }

  @CommandHandler(UsersGroups.createUserGroup)
  create(@Payload() payload: PayloadOf<typeof UsersGroups.createUserGroup>) {
    return this.createUserGroup.execute(payload);
  }

  @CommandHandler(UsersGroups.listUserGroups)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listUserGroups>) {
    return this.listUserGroups.execute(payload);
  }

  @CommandHandler(UsersGroups.updateUserGroup)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateUserGroup>) {
    return this.updateUserGroup.execute(payload);
  }

  @CommandHandler(UsersGroups.deactivateUserGroup)
  deactivate(@Payload() payload: PayloadOf<typeof UsersGroups.deactivateUserGroup>) {
    return this.deactivateUserGroup.execute(payload);
  }

  @CommandHandler(UsersGroups.updateUserGroupMembers)
  updateMembers(@Payload() payload: PayloadOf<typeof UsersGroups.updateUserGroupMembers>) {
    return this.changeMembership.members(payload);
  }

  @CommandHandler(UsersGroups.updateUserGroupSubgroups)
  updateSubgroups(@Payload() payload: PayloadOf<typeof UsersGroups.updateUserGroupSubgroups>) {
    return this.changeMembership.subgroups(payload);
  }

  @CommandHandler(UsersGroups.getUserGroupMembers)
  members(@Payload() payload: PayloadOf<typeof UsersGroups.getUserGroupMembers>) {
    return this.readMembership.members(payload);
  }

  @CommandHandler(UsersGroups.getIsUserGroupMember)
  isMember(@Payload() payload: PayloadOf<typeof UsersGroups.getIsUserGroupMember>) {
    return this.readMembership.isMember(payload);
  }

  @CommandHandler(UsersGroups.getUserGroupSubgroups)
  subgroups(@Payload() payload: PayloadOf<typeof UsersGroups.getUserGroupSubgroups>) {
    return this.readMembership.subgroups(payload);
  }
}

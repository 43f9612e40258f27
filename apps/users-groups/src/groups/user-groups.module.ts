import { Module } from '@nestjs/common';
import { DataModule } from '../data/data.module';
import { ChangeGroupMembership } from './change-group-membership.use-case';
import { CreateUserGroup } from './create-user-group.use-case';
import { DeactivateUserGroup } from './deactivate-user-group.use-case';
import { GroupParts } from './group-parts';
import { GroupPermissions } from './group-permissions';
import { GroupSettingValues } from './group-setting-values';
import { ListUserGroups } from './list-user-groups.use-case';
import { ReadGroupMembership } from './read-group-membership.use-case';
import { ResolveGroupSetting } from './resolve-group-setting.use-case';
import { UpdateUserGroup } from './update-user-group.use-case';
import { UserGroupEvents } from './user-group-events';
import { UserGroupRecords } from './user-group-records';
import { UserGroupsHandler } from './user-groups.handler';

/** User groups: system and user-defined groups, their members, subgroups and permission settings. */
@Module({
  imports: [DataModule],
  controllers: [UserGroupsHandler],
  providers: [
    UserGroupRecords,
    GroupParts,
    GroupPermissions,
    GroupSettingValues,
    UserGroupEvents,
    CreateUserGroup,
    ListUserGroups,
    UpdateUserGroup,
    DeactivateUserGroup,
    ChangeGroupMembership,
    ReadGroupMembership,
    ResolveGroupSetting,
  ],
  exports: [UserGroupRecords, UserGroupEvents, GroupPermissions, GroupSettingValues],
})
export class UserGroupsModule {}

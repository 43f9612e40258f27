import { Controller, Module } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DataModule } from '../data/data.module';
import { AnnounceProfileFields } from './announce-profile-fields';
import { CreateProfileField } from './create-profile-field.use-case';
import { DeleteProfileField } from './delete-profile-field.use-case';
import { ListProfileFields } from './list-profile-fields.use-case';
import { OwnProfileData } from './own-profile-data.use-case';
import { UserAccess } from '../users/user-access';
import { ReorderProfileFields } from './reorder-profile-fields.use-case';
import { UpdateProfileField } from './update-profile-field.use-case';

@Controller()
export class ProfileFieldsHandler {
  constructor(
    private readonly listUseCase: ListProfileFields,
    private readonly createUseCase: CreateProfileField,
    private readonly updateUseCase: UpdateProfileField,
    private readonly deleteUseCase: DeleteProfileField,
    private readonly reorderUseCase: ReorderProfileFields,
    private readonly ownData: OwnProfileData,
  ) {}

  @CommandHandler(UsersGroups.listProfileFields)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listProfileFields>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.createProfileField)
  create(@Payload() payload: PayloadOf<typeof UsersGroups.createProfileField>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.updateProfileField)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateProfileField>) {
    return this.updateUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.deleteProfileField)
  delete(@Payload() payload: PayloadOf<typeof UsersGroups.deleteProfileField>) {
    return this.deleteUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.reorderProfileFields)
  reorder(@Payload() payload: PayloadOf<typeof UsersGroups.reorderProfileFields>) {
    return this.reorderUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.updateOwnProfileData)
  updateOwn(@Payload() payload: PayloadOf<typeof UsersGroups.updateOwnProfileData>) {
    return this.ownData.update(payload);
  }

  @CommandHandler(UsersGroups.removeOwnProfileData)
  removeOwn(@Payload() payload: PayloadOf<typeof UsersGroups.removeOwnProfileData>) {
    return this.ownData.remove(payload);
  }
}

/**
 * Custom profile fields: GET/POST/PATCH /realm/profile_fields, PATCH/DELETE
 * /realm/profile_fields/{field_id}, PATCH/DELETE /users/me/profile_data.
 */
@Module({
  imports: [DataModule],
  controllers: [ProfileFieldsHandler],
  providers: [AnnounceProfileFields, ListProfileFields, CreateProfileField, UpdateProfileField, DeleteProfileField, ReorderProfileFields, OwnProfileData, UserAccess],
})
export class ProfileFieldsModule {}

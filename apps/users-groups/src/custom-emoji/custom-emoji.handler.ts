import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ChangeAvatar } from '../avatars/change-avatar.use-case';
import { RegenerateApiKey } from '../auth/regenerate-api-key.use-case';
import { AddCustomEmoji } from './add-custom-emoji.use-case';
import { DeactivateCustomEmoji } from './deactivate-custom-emoji.use-case';
import { ListCustomEmoji } from './list-custom-emoji.use-case';

/** Custom emoji, avatars and the API key: what a user's own uploads and credentials change. */
@Controller()
export class CustomEmojiHandler {
  constructor(
    private readonly listUseCase: ListCustomEmoji,
    private readonly addUseCase: AddCustomEmoji,
    private readonly deactivateUseCase: DeactivateCustomEmoji,
    private readonly changeAvatarUseCase: ChangeAvatar,
    private readonly regenerateApiKeyUseCase: RegenerateApiKey,
  ) {}

  @CommandHandler(UsersGroups.listCustomEmoji)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listCustomEmoji>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.addCustomEmoji)
  add(@Payload() payload: PayloadOf<typeof UsersGroups.addCustomEmoji>) {
    return this.addUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.deactivateCustomEmoji)
  deactivate(@Payload() payload: PayloadOf<typeof UsersGroups.deactivateCustomEmoji>) {
    return this.deactivateUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.changeAvatar)
  changeAvatar(@Payload() payload: PayloadOf<typeof UsersGroups.changeAvatar>) {
    return this.changeAvatarUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.regenerateApiKey)
  regenerateApiKey(@Payload() payload: PayloadOf<typeof UsersGroups.regenerateApiKey>) {
    return this.regenerateApiKeyUseCase.execute(payload);
  }
}

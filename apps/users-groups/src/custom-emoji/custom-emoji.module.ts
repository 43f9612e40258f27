import { Module } from '@nestjs/common';
import { RealmGroupSettings } from '../realm-settings/realm-group-settings';
import { DataModule } from '../data/data.module';
import { ChangeAvatar } from '../avatars/change-avatar.use-case';
import { UserAccess } from '../users/user-access';
import { RegenerateApiKey } from '../auth/regenerate-api-key.use-case';
import { AddCustomEmoji } from './add-custom-emoji.use-case';
import { CustomEmojiEvents } from './custom-emoji-events';
import { CustomEmojiHandler } from './custom-emoji.handler';
import { DeactivateCustomEmoji } from './deactivate-custom-emoji.use-case';
import { ListCustomEmoji } from './list-custom-emoji.use-case';

/** Custom emoji (GET/DELETE /realm/emoji, the rules of their upload), avatars' source and API key regeneration. */
@Module({
  imports: [DataModule],
  controllers: [CustomEmojiHandler],
  providers: [ListCustomEmoji, AddCustomEmoji, DeactivateCustomEmoji, CustomEmojiEvents, ChangeAvatar, RegenerateApiKey, RealmGroupSettings, UserAccess],
})
export class CustomEmojiModule {}

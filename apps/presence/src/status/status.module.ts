import { Module } from '@nestjs/common';
import { PresenceCoreModule } from '../core/core.module';
import { CustomEmojiReadonly } from './custom-emoji.readonly';
import { GetUserStatus } from './get-user-status.use-case';
import { StatusHandler } from './status.handler';
import { StatusRules } from './status-rules';
import { UpdateOwnStatus } from './update-own-status.use-case';
import { UpdateUserStatus } from './update-user-status.use-case';
import { UserStatusStore } from './user-status.store';

/** User status: POST /users/me/status, POST and GET /users/{user_id}/status. */
@Module({
  imports: [PresenceCoreModule],
  controllers: [StatusHandler],
  providers: [StatusRules, CustomEmojiReadonly, UserStatusStore, UpdateOwnStatus, UpdateUserStatus, GetUserStatus],
  exports: [UserStatusStore],
})
export class StatusModule {}

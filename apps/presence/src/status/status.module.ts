import { Module } from '@nestjs/common';
import { PresenceCoreModule } from '../core/core.module';
import { CustomEmojiReadonlyRepository } from '../data/custom-emoji.readonly.repository';
import { UserStatusRepository } from '../data/user-status.repository';
import { GetUserStatus } from './get-user-status.use-case';
import { StatusHandler } from './status.handler';
import { StatusRules } from './status-rules';
import { UpdateOwnStatus } from './update-own-status.use-case';
import { UpdateUserStatus } from './update-user-status.use-case';

/** User status: POST /users/me/status, POST and GET /users/{user_id}/status. */
@Module({
  imports: [PresenceCoreModule],
  controllers: [StatusHandler],
  providers: [StatusRules, CustomEmojiReadonlyRepository, UserStatusRepository, UpdateOwnStatus, UpdateUserStatus, GetUserStatus],
  exports: [UserStatusRepository],
})
export class StatusModule {}

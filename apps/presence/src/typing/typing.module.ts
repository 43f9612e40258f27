import { Module } from '@nestjs/common';
import { PresenceCoreModule } from '../core/core.module';
import { SendEditTyping } from './send-edit-typing.use-case';
import { SendTyping } from './send-typing.use-case';
import { TypingHandler } from './typing.handler';

/** Typing notifications: POST /typing, POST /messages/{message_id}/typing. */
@Module({
  imports: [PresenceCoreModule],
  controllers: [TypingHandler],
  providers: [SendTyping, SendEditTyping],
})
export class TypingModule {}

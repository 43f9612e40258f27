import { Module } from '@nestjs/common';
import { PresenceCoreModule } from '../core/core.module';
import { SendTyping } from './send-typing.use-case';
import { TypingHandler } from './typing.handler';

/** Typing notifications: POST /typing. */
@Module({
  imports: [PresenceCoreModule],
  controllers: [TypingHandler],
  providers: [SendTyping],
})
export class TypingModule {}

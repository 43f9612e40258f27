import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { GetMessages } from './get-messages.use-case';
import { MessagesHandler } from './messages.handler';
import { ReadableMessages } from './readable-messages.use-case';
import { SendMessage } from './send-message.use-case';

/** Sending and reading messages. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [MessagesHandler],
  providers: [SendMessage, GetMessages, ReadableMessages],
})
export class MessagesModule {}

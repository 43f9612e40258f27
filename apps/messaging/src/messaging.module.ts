import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';

/**
 * The messaging service: channels, subscriptions, messages, topics, read flags, drafts and topic deletion.
 * Its endpoints arrive in later steps; until then it starts, answers its health command
 * and shuts down cleanly like every other service.
 */
@Module({
  imports: [DbModule],
})
export class MessagingModule {}

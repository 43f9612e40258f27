import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';

/** Drafts: its handlers and use cases are registered here. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [],
  providers: [],
})
export class DraftsModule {}

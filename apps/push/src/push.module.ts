import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';

/**
 * The push service: mobile push devices and test notifications.
 * Its endpoints arrive in later steps; until then it starts, answers its health command
 * and shuts down cleanly like every other service.
 */
@Module({
  imports: [DbModule],
})
export class PushModule {}

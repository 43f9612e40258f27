import { Module } from '@nestjs/common';
import { ChannelAccess } from './channel-access';
import { UserDirectoryReadonly } from './user-directory.readonly';

/** What every messaging feature shares: channel access rules and the read-only user view. */
@Module({
  providers: [ChannelAccess, UserDirectoryReadonly],
  exports: [ChannelAccess, UserDirectoryReadonly],
})
export class MessagingCoreModule {}

import { Module } from '@nestjs/common';
import { ChannelAccess } from './channel-access';
import { UserDirectoryReadonly } from './user-directory.readonly';
import { MemberProfilesReadonly } from './member-profiles.readonly';

/** What every messaging feature shares: channel access rules and the read-only views of people. */
@Module({
  providers: [ChannelAccess, UserDirectoryReadonly, MemberProfilesReadonly],
  exports: [ChannelAccess, UserDirectoryReadonly, MemberProfilesReadonly],
})
export class MessagingCoreModule {}

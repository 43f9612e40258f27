import { Module } from '@nestjs/common';
import { MessagingDataModule } from '../data/data.module';
import { ChannelAccess } from './channel-access';
import { MemberProfiles } from './member-profiles';

/** What every messaging feature shares: the repositories, channel access rules and people as messages show them. */
@Module({
  imports: [MessagingDataModule],
  providers: [ChannelAccess, MemberProfiles],
  exports: [MessagingDataModule, ChannelAccess, MemberProfiles],
})
export class MessagingCoreModule {}

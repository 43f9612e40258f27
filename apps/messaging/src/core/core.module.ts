import { Module } from '@nestjs/common';
import { MessagingDataModule } from '../data/data.module';
import { ChannelAccess } from './channel-access';
import { ContentRenderer } from './content-renderer';
import { CustomEmojiCatalogue } from './custom-emoji-catalogue';
import { MemberProfiles } from './member-profiles';
import { RealmLinkifiers } from '../linkifiers/realm-linkifiers';

/** What every messaging feature shares: the repositories, channel access rules, people as messages show them, the organizations' custom emoji and linkifiers, and rendering with them. */
@Module({
  imports: [MessagingDataModule],
  providers: [ChannelAccess, MemberProfiles, CustomEmojiCatalogue, RealmLinkifiers, ContentRenderer],
  exports: [MessagingDataModule, ChannelAccess, MemberProfiles, CustomEmojiCatalogue, RealmLinkifiers, ContentRenderer],
})
export class MessagingCoreModule {}

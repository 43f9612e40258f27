import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { ChannelFoldersHandler } from './channel-folders.handler';
import { CreateChannelFolder } from './create-channel-folder.use-case';
import { ListChannelFolders } from './list-channel-folders.use-case';
import { ReorderChannelFolders } from './reorder-channel-folders.use-case';
import { UpdateChannelFolder } from './update-channel-folder.use-case';

/**
 * Channel folders: POST /channel_folders/create, GET and PATCH /channel_folders, PATCH
 * /channel_folders/{channel_folder_id}. Putting a channel in a folder is checked with
 * checkFolderForChannel (folder-for-channel.ts); POST /register's `channel_folders` is read with
 * ChannelFoldersRepository.list.
 */
@Module({
  imports: [MessagingCoreModule],
  controllers: [ChannelFoldersHandler],
  providers: [CreateChannelFolder, ListChannelFolders, UpdateChannelFolder, ReorderChannelFolders],
})
export class ChannelFoldersModule {}

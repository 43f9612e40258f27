import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { channelFoldersOf } from './channel-folder-rules';

type Params = DecodedParams<typeof Messaging.listChannelFoldersParams>;

/** GET /channel_folders: any user of the organization, guests included; archived folders only when asked. */
@Injectable()
export class ListChannelFolders {
  constructor(private readonly prisma: PrismaService) {}

  async execute({ realm, params }: ApiCommand<Params>): Promise<{ channel_folders: Messaging.ChannelFolderRecord[] }> {
    return { channel_folders: await channelFoldersOf(this.prisma, realm.id, params.include_archived) };
  }
}

import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { toChannelFolderRecord } from './channel-folder-rules';

type Params = DecodedParams<typeof Messaging.listChannelFoldersParams>;

/** GET /channel_folders: any user of the organization, guests included; archived folders only when asked. */
@Injectable()
export class ListChannelFolders {
  constructor(private readonly folders: ChannelFoldersRepository) {}

  async execute({ realm, params }: ApiCommand<Params>): Promise<{ channel_folders: Messaging.ChannelFolderRecord[] }> {
    return { channel_folders: (await this.folders.list(realm.id, params.include_archived)).map(toChannelFolderRecord) };
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService, type ChannelFolderModel } from '@teamchat/db';

/** `channel_folders`, which messaging owns (reads; the folder use cases still write through Prisma until they move here). */
@Injectable()
export class ChannelFoldersRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The organization's folders in their order (ties, which only a race makes, by id); archived ones when asked. */
  list(realmId: number, includeArchived: boolean): Promise<ChannelFolderModel[]> {
    return this.prisma.channelFolder.findMany({
      where: { realmId, ...(includeArchived ? {} : { isArchived: false }) },
      orderBy: [{ order: 'asc' }, { id: 'asc' }],
    });
  }
}

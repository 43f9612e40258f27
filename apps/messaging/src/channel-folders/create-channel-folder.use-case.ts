import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { renderDescription } from '../channels/channel-description';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import {
  channelFolderEvent,
  checkFolderDescription,
  checkFolderName,
  folderNameInUse,
  isNameConflict,
  nameTaken,
  toChannelFolderRecord,
} from './channel-folder-rules';

type Params = DecodedParams<typeof Messaging.createChannelFolderParams>;

/**
 * POST /channel_folders/create (zerver/views/channel_folders.py create_channel_folder):
 * administrators only; the description as sent, the name stripped, neither too long, the name
 * not blank, printable and not another unarchived folder's, whatever its case. The folder goes
 * last in the organization's order; every active user gets an add event.
 */
@Injectable()
export class CreateChannelFolder {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UsersReadonlyRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ channel_folder_id: number }> {
    const caller = user;
    if (!isAdminRole(caller.role)) throw mustBeAdmin();
    // Zulip's parameter checks, in its signature's order: description, then name.
    const description = checkFolderDescription(params.description);
    const name = checkFolderName(params.name);
    if (await nameTaken(this.prisma, realm.id, name)) throw folderNameInUse();

    const folder = await this.prisma
      .$transaction(async (tx) => {
        // Locked, as a reorder locks them, so the two never interleave and the new folder ends up last.
        const orders = await tx.$queryRaw<{ order: number }[]>`SELECT "order" FROM channel_folders WHERE realm_id = ${realm.id} FOR UPDATE`;
        return tx.channelFolder.create({
          data: {
            realmId: realm.id,
            name,
            description,
            renderedDescription: renderDescription(description),
            creatorId: caller.id,
            order: Math.max(-1, ...orders.map((row) => row.order)) + 1,
          },
        });
      })
      .catch((error: unknown) => {
        throw isNameConflict(error) ? folderNameInUse() : error;
      });

    const audience = await this.users.activeUsers(realm.id);
    const event = channelFolderEvent(realm.id, audience.map((u) => u.id), { op: 'add', channel_folder: toChannelFolderRecord(folder) });
    await this.events.publishAll([event], requestId);
    return { channel_folder_id: folder.id };
  }
}

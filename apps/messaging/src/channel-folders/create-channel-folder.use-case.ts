import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { renderDescription } from '../channels/channel-description';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import {
  channelFolderEvent,
  checkFolderDescription,
  checkFolderName,
  folderNameInUse,
  isNameConflict,
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
    private readonly folders: ChannelFoldersRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ channel_folder_id: number }> {
    const caller = user;
    if (!isAdminRole(caller.role)) throw mustBeAdmin();
    // Zulip's parameter checks, in its signature's order: description, then name.
    const description = checkFolderDescription(params.description);
    const name = checkFolderName(params.name);
    if (await this.folders.nameTaken(realm.id, name)) throw folderNameInUse();

    const audience = (await this.users.activeUsers(realm.id)).map((u) => u.id);
    return this.outbox
      .runCold(async (tx) => {
        // Last in the organization's order, the folders locked as a reorder locks them.
        const row = { realmId: realm.id, name, description, renderedDescription: renderDescription(description), creatorId: caller.id };
        const folder = await this.folders.createLast(row, tx);
        return {
          value: { channel_folder_id: folder.id },
          events: [channelFolderEvent(realm.id, audience, { op: 'add', channel_folder: toChannelFolderRecord(folder) })],
        };
      }, requestId)
      .catch((error: unknown) => {
        throw isNameConflict(error) ? folderNameInUse() : error;
      });
  }
}

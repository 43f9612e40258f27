import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox, isStoredId } from '@teamchat/db';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { renderDescription } from '../channels/channel-description';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { ChannelsRepository } from '../data/channels.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import {
  channelFolderEvent,
  checkFolderDescription,
  checkFolderName,
  checkFolderNameLength,
  folderNameInUse,
  invalidFolderId,
  isNameConflict,
  type ChannelFolderEvent,
} from './channel-folder-rules';

type Params = DecodedParams<typeof Messaging.updateChannelFolderParams>;

/**
 * PATCH /channel_folders/{channel_folder_id} (zerver/views/channel_folders.py
 * update_channel_folder), checked in Zulip's order: administrators only; the lengths; a folder
 * of the organization; a name that differs as sent is checked as on creation (stripped, not
 * another unarchived folder's); a folder still holding channels, archived ones too, cannot be
 * archived. Unarchiving a folder whose name an unarchived folder took meanwhile is refused with
 * the same words as a name in use (the unique index would refuse it anyway).
 *
 * Unlike Zulip, which applies each change as it checks it, everything is checked first and then
 * written together: a refused request changes nothing. Each change is one update event to every
 * active user, in Zulip's order (name, description, archiving); nothing changed, no event.
 */
@Injectable()
export class UpdateChannelFolder {
  constructor(
    private readonly folders: ChannelFoldersRepository,
    private readonly channels: ChannelsRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const { channel_folder_id: folderId, is_archived: isArchived } = params;
    // Zulip's parameter checks, in its signature's order: description, then name.
    const description = params.description !== undefined ? checkFolderDescription(params.description) : undefined;
    if (params.name !== undefined) checkFolderNameLength(params.name);
    if (!isStoredId(folderId)) throw invalidFolderId();

    const audience = (await this.users.activeUsers(realm.id)).map((u) => u.id);
    return this.outbox
      .runCold(async (tx) => {
        // Locked: a channel being put in it (checkFolderForChannel) and this archiving wait for each other.
        const folder = await this.folders.lockForUpdate(folderId, realm.id, tx);
        if (!folder) throw invalidFolderId();

        const found: ChannelFolderEvent[] = [];
        let name = folder.name;
        if (params.name !== undefined && params.name !== folder.name) {
          name = checkFolderName(params.name);
          if (await this.folders.nameTaken(realm.id, name, folder.id, tx)) throw folderNameInUse();
          if (name !== folder.name) found.push({ op: 'update', channel_folder_id: folder.id, data: { name } });
        }
        let renderedDescription = folder.renderedDescription;
        if (description !== undefined && description !== folder.description) {
          renderedDescription = renderDescription(description);
          found.push({ op: 'update', channel_folder_id: folder.id, data: { description, rendered_description: renderedDescription } });
        }
        if (isArchived !== undefined && isArchived !== folder.isArchived) {
          if (isArchived) {
            const inUse = await this.channels.countInFolder(folder.id, tx);
            if (inUse > 0) throw badRequest('You need to remove all the channels from this folder to archive it.');
          } else if (await this.folders.nameTaken(realm.id, name, folder.id, tx)) {
            throw folderNameInUse();
          }
          found.push({ op: 'update', channel_folder_id: folder.id, data: { is_archived: isArchived } });
        }

        if (found.length > 0) {
          await this.folders.update(
            folder.id,
            {
              name,
              ...(description !== undefined ? { description, renderedDescription } : {}),
              ...(isArchived !== undefined ? { isArchived } : {}),
            },
            tx,
          );
        }
        return { value: {}, events: found.map((change) => channelFolderEvent(realm.id, audience, change)) };
      }, requestId)
      .catch((error: unknown) => {
        throw isNameConflict(error) ? folderNameInUse() : error;
      });
  }
}

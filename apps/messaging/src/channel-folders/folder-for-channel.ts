import { isStoredId } from '@teamchat/db';
import type { ChannelFoldersRepository } from '../data/channel-folders.repository';
import type { ColdTx } from '../data/transactions';
import { invalidFolderId } from './channel-folder-rules';

/**
 * For putting a channel in a folder (PATCH /streams/{stream_id} `folder_id`, channel creation):
 * the folder must be one of the organization's and not archived, else Zulip's "Invalid channel
 * folder ID" (400 BAD_REQUEST). Zulip's get_channel_folder_by_id takes an archived folder too;
 * refusing it here keeps archived folders empty, as archiving requires them to be.
 *
 * Called inside the transaction `tx` that sets `streams.folder_id`, the folder's row stays share-
 * locked until that commits, so an administrator archiving the folder meanwhile waits and then
 * sees the channel in it (and refuses), rather than archiving a folder that is about to hold it.
 */
export async function checkFolderForChannel(folders: ChannelFoldersRepository, realmId: number, folderId: number, tx?: ColdTx): Promise<void> {
  if (!isStoredId(folderId)) throw invalidFolderId();
  const archived = await folders.archivedForShare(folderId, realmId, tx);
  if (archived === null || archived) throw invalidFolderId();
}

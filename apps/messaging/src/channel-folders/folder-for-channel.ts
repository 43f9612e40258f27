import { isStoredId, type Prisma, type PrismaService } from '@teamchat/db';
import { invalidFolderId } from './channel-folder-rules';

/**
 * For putting a channel in a folder (PATCH /streams/{stream_id} `folder_id`, channel creation):
 * the folder must be one of the organization's and not archived, else Zulip's "Invalid channel
 * folder ID" (400 BAD_REQUEST). Zulip's get_channel_folder_by_id takes an archived folder too;
 * refusing it here keeps archived folders empty, as archiving requires them to be.
 *
 * Call it inside the transaction that sets `streams.folder_id`: the folder's row stays share-
 * locked until that commits, so an administrator archiving the folder meanwhile waits and then
 * sees the channel in it (and refuses), rather than archiving a folder that is about to hold it.
 */
export async function checkFolderForChannel(
  db: PrismaService | Prisma.TransactionClient,
  realmId: number,
  folderId: number,
): Promise<void> {
  if (!isStoredId(folderId)) throw invalidFolderId();
  const [folder] = await db.$queryRaw<{ is_archived: boolean }[]>`
    SELECT is_archived FROM channel_folders WHERE id = ${folderId} AND realm_id = ${realmId} FOR SHARE`;
  if (!folder || folder.is_archived) throw invalidFolderId();
}

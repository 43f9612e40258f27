import { Prisma, columnsOf, statement, type ChannelFolderModel } from '@teamchat/db';

/** `channel_folders`' statements (ChannelFoldersRepository's reads; its writes stay on Prisma). */

const FOLDER_COLUMNS = columnsOf(Prisma.ChannelFolderScalarFieldEnum);

/** The organization's folders in their order (ties, which only a race makes, by id), archived ones too. */
export const allChannelFolders = statement<ChannelFolderModel, [realmId: number]>(
  'messaging.all_channel_folders',
  `SELECT ${FOLDER_COLUMNS} FROM channel_folders WHERE realm_id = $1 ORDER BY "order", id`,
);

/** The organization's folders not archived, in their order. */
export const unarchivedChannelFolders = statement<ChannelFolderModel, [realmId: number]>(
  'messaging.unarchived_channel_folders',
  `SELECT ${FOLDER_COLUMNS} FROM channel_folders WHERE realm_id = $1 AND NOT is_archived ORDER BY "order", id`,
);

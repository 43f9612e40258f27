import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type ChannelFolderModel } from '@teamchat/db';
import { allChannelFolders, unarchivedChannelFolders } from './channel-folders.sql';
import type { ColdTx } from './transactions';

/** A new folder's columns (its order is chosen by `createLast`). */
export interface NewChannelFolder {
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  creatorId: number;
}

/** The columns of a folder an update may change. */
export type ChannelFolderChanges = Partial<Pick<ChannelFolderModel, 'name' | 'description' | 'renderedDescription' | 'isArchived'>>;

/** `channel_folders`, which messaging owns (read through pg, as POST /register does; written through Prisma). */
@Injectable()
export class ChannelFoldersRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's folders in their order (ties, which only a race makes, by id); archived ones when asked. */
  list(realmId: number, includeArchived: boolean): Promise<ChannelFolderModel[]> {
    return this.pg.run(includeArchived ? allChannelFolders : unarchivedChannelFolders, realmId);
  }

  /**
   * Whether another unarchived folder of the organization has this name, whatever its case (the
   * unique index channel_folders_realm_id_name_unarchived_key settles a concurrent race).
   */
  async nameTaken(realmId: number, name: string, exceptId?: number, tx: ColdTx = this.prisma): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM channel_folders
      WHERE realm_id = ${realmId} AND NOT is_archived AND lower(name) = lower(${name}) AND id <> ${exceptId ?? 0}
      LIMIT 1`;
    return rows.length > 0;
  }

  /**
   * Creates a folder last in the organization's order, in the caller's transaction (the folders
   * locked to its end, as a reorder locks them, so the two never interleave).
   */
  async createLast(folder: NewChannelFolder, tx: ColdTx): Promise<ChannelFolderModel> {
    const orders = await tx.$queryRaw<{ order: number }[]>`SELECT "order" FROM channel_folders WHERE realm_id = ${folder.realmId} FOR UPDATE`;
    return tx.channelFolder.create({ data: { ...folder, order: Math.max(-1, ...orders.map((row) => row.order)) + 1 } });
  }

  /** The ids of the organization's folders, archived ones too, locked to the end of `tx` (a folder created meanwhile waits). */
  async lockedIds(realmId: number, tx: ColdTx): Promise<number[]> {
    return (await tx.$queryRaw<{ id: number }[]>`SELECT id FROM channel_folders WHERE realm_id = ${realmId} FOR UPDATE`).map((f) => f.id);
  }

  /** Each listed folder's order becomes its position in `order` (from 0). */
  async setOrder(realmId: number, order: number[], tx: ColdTx): Promise<void> {
    if (order.length === 0) return;
    await tx.$executeRaw`
      UPDATE channel_folders f SET "order" = o.position - 1
      FROM unnest(${order}::int[]) WITH ORDINALITY AS o(id, position)
      WHERE f.id = o.id AND f.realm_id = ${realmId}`;
  }

  /** The organization's folder, locked to the end of `tx` (a channel being put in it waits); null if none. */
  async lockForUpdate(folderId: number, realmId: number, tx: ColdTx): Promise<ChannelFolderModel | null> {
    const [locked] = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM channel_folders WHERE id = ${folderId} AND realm_id = ${realmId} FOR UPDATE`;
    return locked ? tx.channelFolder.findUniqueOrThrow({ where: { id: folderId } }) : null;
  }

  /** Changes a folder's columns. */
  async update(folderId: number, changes: ChannelFolderChanges, tx: ColdTx): Promise<void> {
    await tx.channelFolder.update({ where: { id: folderId }, data: changes });
  }

  /**
   * Whether the organization's folder is archived (null: no such folder), share-locked until
   * `tx` (if any) commits, so archiving it waits for a channel being put in it.
   */
  async archivedForShare(folderId: number, realmId: number, tx: ColdTx = this.prisma): Promise<boolean | null> {
    const [folder] = await tx.$queryRaw<{ is_archived: boolean }[]>`
      SELECT is_archived FROM channel_folders WHERE id = ${folderId} AND realm_id = ${realmId} FOR SHARE`;
    return folder ? folder.is_archived : null;
  }
}

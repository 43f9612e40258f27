import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { channelFolderEvent } from './channel-folder-rules';

type Params = DecodedParams<typeof Messaging.reorderChannelFoldersParams>;

/**
 * PATCH /channel_folders (zerver/actions/channel_folders.py try_reorder_realm_channel_folders):
 * administrators only; `order` must list every folder of the organization, archived ones too,
 * each once (Zulip refuses a missing one; an unknown or repeated one is refused here too, with
 * the same words). Each folder's order becomes its position; every active user gets a reorder
 * event carrying the list.
 */
@Injectable()
export class ReorderChannelFolders {
  constructor(
    private readonly folders: ChannelFoldersRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const { order } = params;

    const audience = (await this.users.activeUsers(realm.id)).map((u) => u.id);
    return this.outbox.runCold(async (tx) => {
      // Locked, so a folder created meanwhile waits for this order (and goes after it).
      const ids = new Set(await this.folders.lockedIds(realm.id, tx));
      const permutation = order.length === ids.size && new Set(order).size === order.length && order.every((id) => ids.has(id));
      if (!permutation) throw badRequest('Invalid order mapping.');
      await this.folders.setOrder(realm.id, order, tx);
      return { value: {}, events: [channelFolderEvent(realm.id, audience, { op: 'reorder', order })] };
    }, requestId);
  }
}

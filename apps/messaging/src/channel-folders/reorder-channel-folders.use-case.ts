import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
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
    private readonly prisma: PrismaService,
    private readonly users: UsersReadonlyRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const { order } = params;

    await this.prisma.$transaction(async (tx) => {
      // Locked, so a folder created meanwhile waits for this order (and goes after it).
      const folders = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM channel_folders WHERE realm_id = ${realm.id} FOR UPDATE`;
      const ids = new Set(folders.map((f) => f.id));
      const permutation = order.length === ids.size && new Set(order).size === order.length && order.every((id) => ids.has(id));
      if (!permutation) throw badRequest('Invalid order mapping.');
      if (order.length > 0) {
        await tx.$executeRaw`
          UPDATE channel_folders f SET "order" = o.position - 1
          FROM unnest(${order}::int[]) WITH ORDINALITY AS o(id, position)
          WHERE f.id = o.id AND f.realm_id = ${realm.id}`;
      }
    });

    const audience = await this.users.activeUsers(realm.id);
    await this.events.publishAll([channelFolderEvent(realm.id, audience.map((u) => u.id), { op: 'reorder', order })], requestId);
    return {};
  }
}

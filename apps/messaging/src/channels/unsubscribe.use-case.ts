import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { Role, ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import { UserDirectoryReadonly } from '../core/user-directory.readonly';
import { canSeeChannel } from './channel-rules';
import { resolvePrincipals } from './principals';

type Params = DecodedParams<typeof Messaging.unsubscribeParams>;

/**
 * DELETE /users/me/subscriptions. Removing someone else takes an administrator (Zulip's
 * default can_remove_subscribers_group); a channel the caller cannot see is unknown.
 */
@Injectable()
export class Unsubscribe {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UserDirectoryReadonly,
  ) {}

  async execute({ realm, user, params }: ApiCommand<Params>): Promise<{ removed: string[]; not_removed: string[] }> {
    const caller = user!;
    const principals = await resolvePrincipals(this.users, realm.id, caller, params.principals);
    if (principals.some((p) => p.id !== caller.id) && caller.role > Role.ADMINISTRATOR) {
      throw badRequest('Insufficient permission');
    }
    const names = [...new Set(params.subscriptions.map((name) => name.trim()))];
    const channels: { id: number; name: string }[] = [];
    for (const name of names) {
      const channel = await this.prisma.stream.findFirst({
        where: { realmId: realm.id, isArchived: false, name: { equals: name, mode: 'insensitive' } },
        include: { subscriptions: { where: { userId: caller.id, active: true }, select: { id: true } } },
      });
      if (!channel || !canSeeChannel(channel, caller, channel.subscriptions.length > 0)) {
        throw new ZulipError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
      }
      channels.push(channel);
    }

    const removed: string[] = [];
    const notRemoved: string[] = [];
    await this.prisma.$transaction(async (tx) => {
      for (const principal of principals) {
        for (const channel of channels) {
          const { count } = await tx.subscription.updateMany({
            where: { userId: principal.id, streamId: channel.id, active: true },
            data: { active: false },
          });
          (count > 0 ? removed : notRemoved).push(channel.name);
        }
      }
    });
    return { removed, not_removed: notRemoved };
  }
}

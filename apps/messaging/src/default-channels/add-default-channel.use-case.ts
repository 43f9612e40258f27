import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { defaultChannelIds, defaultChannelsEvent } from './default-channels';

/**
 * POST /default_streams (zerver/views/streams.py add_default_stream): administrators make a
 * channel they may read a default channel; a private one never is. Every active user's clients
 * get `default_streams` when the set changed.
 */
@Injectable()
export class AddDefaultChannel {
  constructor(
    private readonly prisma: PrismaService,
    private readonly channels: ChannelAccess,
    private readonly users: UsersReadonlyRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<DecodedParams<typeof Messaging.defaultChannelParams>>): Promise<Record<string, never>> {
    if (!isAdminRole(user!.role)) throw mustBeAdmin();
    const access = await this.channels.readable(realm.id, user!, params.stream_id);
    if (!access) throw badRequest('Invalid channel ID');
    if (access.channel.inviteOnly) throw badRequest('Private channels cannot be made default.');
    const { count } = await this.prisma.stream.updateMany({ where: { id: access.channel.id, isDefault: false }, data: { isDefault: true } });
    if (count > 0) {
      const [ids, audience] = await Promise.all([defaultChannelIds(this.prisma, realm.id), this.users.activeUsers(realm.id)]);
      await this.events.publishAll([defaultChannelsEvent(realm.id, audience, ids)], requestId);
    }
    return {};
  }
}

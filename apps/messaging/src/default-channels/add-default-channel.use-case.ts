import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { EventBus } from '@teamchat/platform';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { defaultChannelsEvent } from './default-channels';

/**
 * POST /default_streams (zerver/views/streams.py add_default_stream): administrators make a
 * channel they may read a default channel; a private one never is. Every active user's clients
 * get `default_streams` when the set changed.
 */
@Injectable()
export class AddDefaultChannel {
  constructor(
    private readonly channelRows: ChannelsRepository,
    private readonly channels: ChannelAccess,
    private readonly users: UsersReadonlyRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.defaultChannelParams>>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const access = await this.channels.readable(realm.id, user, params.stream_id);
    if (!access) throw badRequest('Invalid channel ID');
    if (access.channel.inviteOnly) throw badRequest('Private channels cannot be made default.');
    if (await this.channelRows.setDefault(access.channel.id, true)) {
      const [ids, audience] = await Promise.all([this.channelRows.defaultIds(realm.id), this.users.activeUsers(realm.id)]);
      await this.events.publishAll([defaultChannelsEvent(realm.id, audience, ids)], requestId);
    }
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { EventOutbox } from '@teamchat/db';
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
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.defaultChannelParams>>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const access = await this.channels.readable(realm.id, user, params.stream_id);
    if (!access) throw badRequest('Invalid channel ID');
    if (access.channel.inviteOnly) throw badRequest('Private channels cannot be made default.');
    const audience = await this.users.activeUsers(realm.id);
    return this.outbox.runCold(async (tx) => {
      if (!(await this.channelRows.setDefault(access.channel.id, true, tx))) return { value: {}, events: [] };
      return { value: {}, events: [defaultChannelsEvent(realm.id, audience, await this.channelRows.defaultIds(realm.id, tx))] };
    }, requestId);
  }
}

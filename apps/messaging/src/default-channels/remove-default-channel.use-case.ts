import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { EventOutbox } from '@teamchat/db';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { defaultChannelsEvent } from './default-channels';

/**
 * DELETE /default_streams (zerver/views/streams.py remove_default_stream): administrators take
 * a channel whose metadata they may see out of the default channels; `default_streams` to every
 * active user when the set changed.
 */
@Injectable()
export class RemoveDefaultChannel {
  constructor(
    private readonly channelRows: ChannelsRepository,
    private readonly access: ChannelPermissions,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.defaultChannelParams>>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const { channel } = await this.access.visible(user, params.stream_id);
    const audience = await this.users.activeUsers(realm.id);
    return this.outbox.runCold(async (tx) => {
      if (!(await this.channelRows.setDefault(channel.id, false, tx))) return { value: {}, events: [] };
      return { value: {}, events: [defaultChannelsEvent(realm.id, audience, await this.channelRows.defaultIds(realm.id, tx))] };
    }, requestId);
  }
}

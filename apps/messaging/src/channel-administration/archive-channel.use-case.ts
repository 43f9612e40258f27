import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { channelAudience, channelsGone } from '../channels/channel-events';
import { ChannelsRepository } from '../data/channels.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { ChannelPermissions } from './channel-permissions';

/**
 * DELETE /streams/{stream_id} (zerver/actions/streams.py do_deactivate_stream): its administrators
 * archive a channel. It keeps its messages and subscriptions; no one can send to it, and clients
 * that could see it are told it is gone (`stream` delete).
 */
@Injectable()
export class ArchiveChannel {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly access: ChannelPermissions,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.archiveChannelParams>>): Promise<Record<string, never>> {
    const channel = await this.access.forAdministration(user, params.stream_id);
    if (channel.isArchived) throw badRequest('Channel is already deactivated');
    const [subscribers, everyone] = await Promise.all([this.subscriptions.subscribedUserIds(channel.id), this.users.activeUsers(realm.id)]);
    const audience = channelAudience(channel, everyone, new Set(subscribers));
    return this.outbox.runCold(async (tx) => {
      await this.channels.archive(channel.id, tx);
      return { value: {}, events: [channelsGone(realm.id, audience, [channel.id])] };
    }, requestId);
  }
}

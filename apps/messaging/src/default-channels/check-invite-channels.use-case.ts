import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { ChannelAccess } from '../core/channel-access';
import { canJoinChannel } from '../channels/channel-rules';
import { ChannelsRepository } from '../data/channels.repository';

/**
 * The channels an invitation may choose (Zulip's access_streams_for_invite), in the order given:
 * each must be one the inviter may read in their organization ("Invalid channel ID {id}. No
 * invites were sent."); then, unless it is a default channel, the inviter must be allowed to add
 * subscribers to it by the rule POST /users/me/subscriptions applies to adding others.
 */
@Injectable()
export class CheckInviteChannels {
  constructor(
    private readonly access: ChannelAccess,
    private readonly permissions: ChannelPermissions,
    private readonly channelsRepository: ChannelsRepository,
  ) {}

  async execute({ inviter, streamIds }: { inviter: AuthUser; streamIds: number[] }): Promise<Record<string, never>> {
    const found = [];
    for (const streamId of streamIds) {
      const readable = await this.access.readable(inviter.realmId, inviter, streamId);
      if (!readable) throw badRequest(`Invalid channel ID ${streamId}. No invites were sent.`);
      found.push(readable);
    }
    if (found.length === 0) return {};
    const defaults = new Set(await this.channelsRepository.defaultIds(inviter.realmId));
    for (const { channel, subscription } of found) {
      if (defaults.has(channel.id) || canJoinChannel(channel, inviter, subscription !== null)) continue;
      if (channel.inviteOnly && (await this.permissions.may(inviter, channel, 'can_add_subscribers_group'))) continue;
      throw badRequest('You do not have permission to subscribe other users to channels.');
    }
    return {};
  }
}

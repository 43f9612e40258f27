import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { GroupMembership, PrismaService, isStoredId, type StreamModel } from '@teamchat/db';
import { badRequest, isAdminRole, isGuestRole } from '@teamchat/zulip';
import { canSeeChannel } from '../channels/channel-rules';

/**
 * Finding a channel for its administration (zerver/lib/streams.py access_stream_for_administration):
 * one the caller may see, else "Invalid channel ID"; administering it needs the organization's
 * administrator role or the channel's can_administer_channel_group (never for guests).
 */
@Injectable()
export class ChannelAccess {
  constructor(
    private readonly prisma: PrismaService,
    private readonly groups: GroupMembership,
  ) {}

  /** The channel, if the caller may see it; subscribed tells whether they are subscribed. */
  async visible(caller: AuthUser, streamId: number): Promise<{ channel: StreamModel; subscribed: boolean }> {
    const channel = isStoredId(streamId) ? await this.prisma.stream.findFirst({ where: { id: streamId, realmId: caller.realmId } }) : null;
    const subscribed =
      channel !== null && (await this.prisma.subscription.count({ where: { streamId: channel.id, userId: caller.id, active: true } })) > 0;
    if (!channel || !canSeeChannel(channel, caller, subscribed)) throw badRequest('Invalid channel ID');
    return { channel, subscribed };
  }

  /** Whether the caller administers the channel. */
  async administers(caller: AuthUser, channel: StreamModel): Promise<boolean> {
    if (isAdminRole(caller.role)) return true;
    if (isGuestRole(caller.role) || channel.canAdministerChannelGroupId === null) return false;
    return this.groups.isMember(caller.id, channel.canAdministerChannelGroupId);
  }

  /** The channel, if the caller may see and administer it. */
  async forAdministration(caller: AuthUser, streamId: number): Promise<StreamModel> {
    const { channel } = await this.visible(caller, streamId);
    if (!(await this.administers(caller, channel))) throw badRequest('You do not have permission to administer this channel.');
    return channel;
  }
}

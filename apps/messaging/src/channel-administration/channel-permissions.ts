import { Injectable } from '@nestjs/common';
import type { AuthUser, ChannelPermissionSettingName } from '@teamchat/contracts';
import { isStoredId, type StreamModel } from '@teamchat/db';
import { badRequest, isAdminRole, isGuestRole } from '@teamchat/zulip';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionColumns } from '../channels/channel-permission-settings';
import { canSeeChannel } from '../channels/channel-rules';
import { ChannelsRepository } from '../data/channels.repository';
import { GroupsReadonlyRepository } from '../data/groups.readonly.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';

/**
 * Finding a channel for its administration (zerver/lib/streams.py access_stream_for_administration):
 * one the caller may see, else "Invalid channel ID"; administering it needs the organization's
 * administrator role or the channel's can_administer_channel_group (never for guests).
 */
@Injectable()
export class ChannelPermissions {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly groups: GroupsReadonlyRepository,
  ) {}

  /** The channel, if the caller may see it; subscribed tells whether they are subscribed. */
  async visible(caller: AuthUser, streamId: number): Promise<{ channel: StreamModel; subscribed: boolean }> {
    const channel = isStoredId(streamId) ? await this.channels.findInRealm(streamId, caller.realmId) : null;
    const subscribed = channel !== null && (await this.subscriptions.isActiveSubscriber(channel.id, caller.id));
    if (!channel || !canSeeChannel(channel, caller, subscribed)) throw badRequest('Invalid channel ID');
    return { channel, subscribed };
  }

  /** Whether the caller administers the channel. */
  async administers(caller: AuthUser, channel: ChannelPermissionColumns): Promise<boolean> {
    return this.may(caller, channel, 'can_administer_channel_group');
  }

  /**
   * Whether the caller holds one of the channel's permissions: its administrators (the
   * organization's, or the channel's can_administer_channel_group) hold them all; otherwise
   * the setting's group decides, and a guest never holds one that may not be role:everyone.
   */
  async may(caller: AuthUser, channel: ChannelPermissionColumns, setting: ChannelPermissionSettingName): Promise<boolean> {
    if (isAdminRole(caller.role)) return true;
    const candidates = [
      ...new Set(
        (['can_administer_channel_group', setting] as ChannelPermissionSettingName[])
          .filter((name) => CHANNEL_PERMISSION_SETTINGS[name].allowEveryone || !isGuestRole(caller.role))
          .map((name) => channel[CHANNEL_PERMISSION_SETTINGS[name].column])
          .filter((id): id is number => id !== null),
      ),
    ];
    return (await this.groups.groupsHolding(caller.id, candidates)).size > 0;
  }

  /** The channel, if the caller may see and administer it. */
  async forAdministration(caller: AuthUser, streamId: number): Promise<StreamModel> {
    const { channel } = await this.visible(caller, streamId);
    if (!(await this.administers(caller, channel))) throw badRequest('You do not have permission to administer this channel.');
    return channel;
  }
}

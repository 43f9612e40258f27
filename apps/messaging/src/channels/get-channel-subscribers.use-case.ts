import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { SubscriptionsRepository } from '../data/subscriptions.repository';

/**
 * GET /streams/{stream_id}/members (zerver/views/streams.py get_subscribers_backend): the
 * active subscribers, with active accounts, of a channel whose metadata the caller may see
 * (administrators see private channels' members too, as in Zulip).
 */
@Injectable()
export class GetChannelSubscribers {
  constructor(
    private readonly access: ChannelPermissions,
    private readonly subscriptions: SubscriptionsRepository,
  ) {}

  async execute({ user, params }: UserCommand<DecodedParams<typeof Messaging.getChannelSubscribersParams>>): Promise<{ subscribers: number[] }> {
    const { channel } = await this.access.visible(user, params.stream_id);
    return { subscribers: await this.subscriptions.activeSubscriberIds(channel.id) };
  }
}

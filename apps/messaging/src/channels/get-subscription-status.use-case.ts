import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { CommandClient, hidesAnyFromGuest } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';

/**
 * GET /users/{user_id}/subscriptions/{stream_id} (zerver/views/streams.py
 * get_subscription_backend): whether an active user of the organization is subscribed to a
 * channel whose metadata the caller may see. A guest may not ask about someone
 * can_access_all_users_group hides from them (access_user_by_id: "Insufficient permission").
 */
@Injectable()
export class GetSubscriptionStatus {
  constructor(
    private readonly users: UsersReadonlyRepository,
    private readonly access: ChannelPermissions,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly commands: CommandClient,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.getSubscriptionStatusParams>>): Promise<{ is_subscribed: boolean }> {
    const [target] = await this.users.byIds(realm.id, [params.user_id], () => 'No such user');
    if (await hidesAnyFromGuest(this.commands, realm, user, [target.id], requestId)) throw badRequest('Insufficient permission');
    const { channel } = await this.access.visible(user, params.stream_id);
    return { is_subscribed: await this.subscriptions.isActiveSubscriber(channel.id, target.id) };
  }
}

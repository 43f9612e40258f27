import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';

type Command = PayloadOf<typeof Messaging.typingAudience>;

/**
 * Who is subscribed to a channel someone is typing in, for presence's typing notifications.
 * The typist must be allowed to send there (Zulip's access_stream_by_id_for_message, then
 * access_stream_for_send_message): a channel that does not exist, is archived, belongs to
 * another organization or that they may not read is an "Invalid channel ID".
 */
@Injectable()
export class TypingAudience {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly channels: ChannelAccess,
    private readonly users: UsersReadonlyRepository,
  ) {}

  async execute({ realmId, userId, streamId }: Command): Promise<{ subscriberIds: number[] }> {
    const [sender] = await this.users.byIds(realmId, [userId], (id) => `Invalid user ID ${id}`);
    const access = await this.channels.readable(realmId, sender, streamId);
    if (!access) throw badRequest('Invalid channel ID');
    // Until channels carry can_send_message_group, whoever may read a channel may send to it.

    return { subscriberIds: await this.subscriptions.activeSubscriberIds(access.channel.id) };
  }
}

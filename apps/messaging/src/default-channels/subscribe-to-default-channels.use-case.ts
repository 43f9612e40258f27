import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import { ChannelsRepository } from '../data/channels.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { Subscribe } from '../channels/subscribe.use-case';

/**
 * A new account joins the organization's default channels (Zulip's process_new_human_user),
 * through the subscription path, so its clients and the channels' subscribers get the usual
 * `subscription` add and peer_add events. Bots and guests join none (a guest may not join a
 * public channel by themself). Returns the names of the channels joined.
 */
@Injectable()
export class SubscribeToDefaultChannels {
  constructor(
    private readonly channelsRepository: ChannelsRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly subscribe: Subscribe,
  ) {}

  async execute(user: AuthUser, requestId: string): Promise<string[]> {
    if (user.isBot || user.role === Role.GUEST) return [];
    const ids = await this.channelsRepository.defaultIds(user.realmId);
    if (ids.length === 0) return [];
    const channels = await this.channelsRepository.namesAndDescriptions(ids);
    const principals = await this.users.byIds(user.realmId, [user.id], () => 'No such user');
    const result = await this.subscribe.run({
      realmId: user.realmId,
      caller: user,
      channels,
      principals,
      othersIncluded: false,
      options: { invite_only: false, is_web_public: false, is_default_stream: false },
      authorizationErrorsFatal: false,
      requestId,
    });
    return result.subscribed[String(user.id)] ?? [];
  }
}

import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { Subscribe } from '../channels/subscribe.use-case';

/**
 * An account made from an invitation or a sign-up joins its channels (Zulip's
 * set_up_streams_and_groups_for_new_human_user): the invitation's channels that still exist and
 * are not archived, plus the organization's default channels when the invitation asked for
 * them, through the subscription path (`subscription` add to the new user, `peer_add` and, for
 * channels it could not see before, `stream` create). Returns the names of the channels joined.
 */
@Injectable()
export class SubscribeNewUser {
  constructor(
    private readonly channelsRepository: ChannelsRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly subscribe: Subscribe,
  ) {}

  async execute(input: { user: AuthUser; streamIds: number[]; includeDefaultChannels: boolean; requestId: string }): Promise<{ subscribed: string[] }> {
    const { user } = input;
    const wanted = new Set(input.streamIds);
    if (input.includeDefaultChannels) for (const id of await this.channelsRepository.defaultIds(user.realmId)) wanted.add(id);
    if (wanted.size === 0) return { subscribed: [] };
    const channels = (await this.channelsRepository.withCallerSubscription(user.realmId, [...wanted], user.id))
      .filter((channel) => !channel.isArchived)
      .sort((a, b) => a.id - b.id)
      .map((channel) => ({ name: channel.name, description: channel.description }));
    if (channels.length === 0) return { subscribed: [] };
    const principals = await this.users.byIds(user.realmId, [user.id], () => 'No such user');
    const result = await this.subscribe.run({
      realmId: user.realmId,
      caller: user,
      channels,
      principals,
      othersIncluded: false,
      options: { invite_only: false, is_web_public: false, is_default_stream: false },
      authorizationErrorsFatal: false,
      requestId: input.requestId,
      asNewUser: true,
    });
    return { subscribed: result.subscribed[String(user.id)] ?? [] };
  }
}

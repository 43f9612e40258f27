import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { checkChannelDescription, checkChannelName } from './channel-rules';
import { Subscribe } from './subscribe.use-case';

/**
 * POST /channels/create (zerver/views/streams.py create_channel): creates one channel, with
 * its `description`, and subscribes `subscribers` (possibly nobody) to it, through the
 * subscription path, so the creation rules, the settings accepted and the events are those of POST
 * /users/me/subscriptions; a channel of that name existing already is CHANNEL_ALREADY_EXISTS
 * (409), archived ones included.
 */
@Injectable()
export class CreateChannel {
  constructor(
    private readonly users: UsersReadonlyRepository,
    private readonly subscribe: Subscribe,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.createChannelParams>>): Promise<{ id: number }> {
    const caller = user;
    const name = checkChannelName(params.name);
    const description = checkChannelDescription(params.description);
    const principals = params.subscribers.length > 0 ? await this.users.byIds(realm.id, params.subscribers, (id) => `No such user: ${id}`) : [];
    const { created } = await this.subscribe.run({
      realmId: realm.id,
      caller,
      channels: [{ name, description }],
      principals,
      othersIncluded: principals.some((p) => p.id !== caller.id),
      options: params,
      authorizationErrorsFatal: true,
      requestId,
      mustCreate: true,
    });
    return { id: created[0] };
  }
}

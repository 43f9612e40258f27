import { Injectable } from '@nestjs/common';
import type { Messaging, ResultOf, UserCommand } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { HEX_COLOR, checkChannelDescription, checkChannelName } from './channel-rules';
import { resolvePrincipals } from './principals';
import { Subscribe } from './subscribe.use-case';
import { Unsubscribe } from './unsubscribe.use-case';

type Params = DecodedParams<typeof Messaging.updateSubscriptionsParams>;

/**
 * PATCH /users/me/subscriptions (zerver/views/streams.py update_subscriptions_backend, which
 * composes add_subscriptions_backend and remove_subscriptions_backend): the caller subscribes
 * to `add` by the rules of POST /users/me/subscriptions (Subscribe) and leaves `delete` by those
 * of DELETE (Unsubscribe). Zulip runs both in one transaction; here both parts are checked
 * before either writes, so a refused request changes nothing.
 */
@Injectable()
export class UpdateSubscriptions {
  constructor(
    private readonly subscribe: Subscribe,
    private readonly unsubscribe: Unsubscribe,
    private readonly users: UsersReadonlyRepository,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<ResultOf<typeof Messaging.updateSubscriptions>> {
    const add = params.add ?? [];
    const remove = params.delete ?? [];
    if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');

    const channels = add.map((request) => {
      if (request.color !== undefined && !HEX_COLOR.test(request.color)) throw badRequest('add.color is not a valid hex color code');
      return { name: checkChannelName(request.name), description: checkChannelDescription(request.description), color: request.color };
    });
    const removal = remove.length > 0 ? await this.unsubscribe.prepare(realm.id, user, { subscriptions: remove, principals: undefined }) : null;

    let added: { subscribed: Record<string, string[]>; already_subscribed: Record<string, string[]> } = { subscribed: {}, already_subscribed: {} };
    if (channels.length > 0) {
      const { subscribed, already_subscribed } = await this.subscribe.run({
        realmId: realm.id,
        caller: user,
        channels,
        principals: await resolvePrincipals(this.users, realm.id, user, undefined),
        othersIncluded: false,
        options: { invite_only: false, is_web_public: false, is_default_stream: false },
        authorizationErrorsFatal: true,
        requestId,
      });
      added = { subscribed, already_subscribed };
    }
    const removed = removal ? await this.unsubscribe.apply(removal, requestId) : { removed: [], not_removed: [] };
    return { ...added, ...removed };
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Presence } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { singleUserPresence } from './presence-format';
import { PresencePeople } from './presence-people';
import { PresenceStore } from './presence.store';

type Params = DecodedParams<typeof Presence.getUserPresenceParams>;

/**
 * GET /users/{user_id_or_email}/presence (get_presence_backend). A user who hides their
 * presence has none to show ("No presence data for …"), like one who never reported any.
 */
@Injectable()
export class GetUserPresence {
  constructor(
    private readonly people: PresencePeople,
    private readonly store: PresenceStore,
  ) {}

  async execute({ realm, user, params }: UserCommand<Params>) {
    const target = await this.people.named(realm, user, params.user_id_or_email);
    const entry = target.settings.presence_enabled ? await this.store.find(realm.id, target.id) : null;
    if (!entry) throw badRequest(`No presence data for ${params.user_id_or_email}`);
    const [shown] = (await this.people.activeHumans(realm, [target.id])).values();
    if (!shown) throw badRequest('No such user');
    return { presence: singleUserPresence(entry, shown.dateJoined, Math.floor(Date.now() / 1000)) };
  }
}

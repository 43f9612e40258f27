import { Injectable } from '@nestjs/common';
import type { UserCommand, Presence } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { PresenceAnnouncer } from './presence-announcer';
import { PresencePeople } from './presence-people';
import { PresenceReader } from './presence-reader';
import { PresenceStore } from './presence.store';

type Params = DecodedParams<typeof Presence.updatePresenceParams>;
type Result = Record<string, unknown>;

/**
 * POST /users/me/presence (zerver/views/presence.py update_active_status_backend): records the
 * report in Redis (one script) unless the caller hides their presence, then, unless ping_only,
 * answers the organization's presence. A user new to presence or back online is announced at
 * once to organizations of at most 100 active users (Zulip's send_presence_changed).
 */
@Injectable()
export class UpdatePresence {
  constructor(
    private readonly store: PresenceStore,
    private readonly people: PresencePeople,
    private readonly reader: PresenceReader,
    private readonly announcer: PresenceAnnouncer,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Result> {
    const caller = user;
    if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
    if (params.status !== 'active' && params.status !== 'idle') throw badRequest(`Invalid status: ${params.status}`);

    const me = (await this.people.activeHumans(realm, [caller.id])).get(caller.id);
    if (me?.presenceEnabled) {
      const now = Math.floor(Date.now() / 1000);
      const update = await this.store.update(realm.id, caller.id, now, params.status === 'active');
      if (update.announce) await this.announcer.announce(realm.id, me, update.entry, requestId);
    }
    if (params.ping_only) return {};
    const lastUpdateId = params.last_update_id ?? null;
    return {
      ...(await this.reader.read(realm, {
        slim: params.slim_presence || lastUpdateId !== null,
        lastUpdateId,
        historyLimitDays: params.history_limit_days ?? null,
      })),
    };
  }
}

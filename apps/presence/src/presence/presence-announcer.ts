import { Injectable } from '@nestjs/common';
import { PresenceEvents } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import { legacyEventPresence, modernPresence } from './presence-format';
import type { PresencePerson } from './presence-people';
import { PresencePeople } from './presence-people';
import { PRESENCE } from './presence.settings';
import type { PresenceEntry } from './presence.store';

/**
 * The `presence` event (Zulip's send_presence_changed): to every active user, in both formats
 * (the gateway gives each queue one), skipped above 100 active users unless `force` (a change
 * of presence_enabled is always announced).
 *
 * Published straight to the event bus, not the outbox: presence pings live in Redis (flushed to
 * Postgres later, in batches), so no transaction of Postgres holds them to share a commit with,
 * and the next ping (within a minute) says the same again should one event be lost.
 */
@Injectable()
export class PresenceAnnouncer {
  constructor(
    private readonly people: PresencePeople,
    private readonly events: EventBus,
  ) {}

  async announce(realmId: number, person: PresencePerson, entry: PresenceEntry, requestId: string, { force = false } = {}): Promise<void> {
    const users = await this.people.audience(realmId);
    if (users.length > PRESENCE.userLimitForEvents && !force) return;
    const event = {
      type: 'presence',
      user_id: person.id,
      email: person.email,
      server_timestamp: Date.now() / 1000,
      presence: legacyEventPresence(entry, person.dateJoined),
      presences: { [String(person.id)]: modernPresence(entry, person.dateJoined) },
    };
    await this.events.publishAll([{ def: PresenceEvents.presenceChanged, payload: { realmId, users, event } }], requestId);
  }
}

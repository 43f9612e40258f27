import { Injectable } from '@nestjs/common';
import type { Presence, RealmRef } from '@teamchat/contracts';
import { legacyPresence, modernPresence } from './presence-format';
import { PresencePeople } from './presence-people';
import { PRESENCE } from './presence.settings';
import { PresenceStore } from './presence.store';

export interface PresenceQuery {
  /** Modern format (by user id) rather than legacy (by email). */
  slim: boolean;
  /** Only what changed after this sequence number; ≤ 0 or null: everything within the history limit. */
  lastUpdateId: number | null;
  /** How many days back a full read looks (default 14; 0: nothing). */
  historyLimitDays: number | null;
}

export interface PresenceState {
  presences: Record<string, Presence.ModernPresence | Presence.LegacyPresence>;
  /** The newest update returned, else the client's own, else -1. */
  presence_last_update_id: number;
  server_timestamp: number;
}

/**
 * The organization's presence as Zulip's get_presence_dict_by_realm gives it: active humans who
 * share their presence, with data newer than the client's last_update_id, or connected within
 * the history limit. One Redis round trip and one statement for who those users are.
 */
@Injectable()
export class PresenceReader {
  constructor(
    private readonly store: PresenceStore,
    private readonly people: PresencePeople,
  ) {}

  async read(realm: Pick<RealmRef, 'id' | 'host'>, query: PresenceQuery): Promise<PresenceState> {
    const serverTimestamp = Date.now() / 1000;
    const now = Math.floor(serverTimestamp);
    const { lastUpdateId: after, historyLimitDays } = query;
    let entries = historyLimitDays === 0 ? [] : await this.store.read(realm.id, after ?? 0);
    if (after === null || after <= 0) {
      const since = now - (historyLimitDays ?? PRESENCE.defaultHistoryDays) * 86400;
      entries = entries.filter((entry) => entry.lastConnected >= since);
    }
    const people = await this.people.activeHumans(realm, entries.map((entry) => entry.userId));
    const presences: PresenceState['presences'] = {};
    let newest = -1;
    for (const entry of entries) {
      const person = people.get(entry.userId);
      if (!person?.presenceEnabled) continue;
      if (query.slim) presences[String(person.id)] = modernPresence(entry, person.dateJoined);
      else presences[person.email] = legacyPresence(entry, person.dateJoined, now);
      newest = Math.max(newest, entry.updateId);
    }
    return {
      presences,
      presence_last_update_id: newest >= 0 ? newest : (after ?? -1),
      server_timestamp: serverTimestamp,
    };
  }
}

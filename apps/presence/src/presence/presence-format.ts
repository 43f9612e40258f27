import type { Presence } from '@teamchat/contracts';
import type { PresenceEntry } from './presence.store';
import { PRESENCE } from './presence.settings';

/**
 * The shapes Zulip gives presence (zerver/lib/presence.py). A user never active shows their
 * joining time as last active (user_presence_datetime_with_date_joined_default).
 */

const activeOf = (entry: PresenceEntry, dateJoined: number) => (entry.lastActive > 0 ? entry.lastActive : dateJoined);

/** Modern format: both times. */
export function modernPresence(entry: PresenceEntry, dateJoined: number): Presence.ModernPresence {
  return { active_timestamp: activeOf(entry, dateJoined), idle_timestamp: entry.lastConnected };
}

/** Legacy format of reads: active when last active within two minutes of `now`, else idle at the last connection. */
export function legacyPresence(entry: PresenceEntry, dateJoined: number, now: number): Presence.LegacyPresence {
  const active = activeOf(entry, dateJoined);
  const isActive = now - active <= PRESENCE.legacyActiveWindowSeconds;
  const status = isActive ? 'active' : 'idle';
  const timestamp = isActive ? active : entry.lastConnected;
  return {
    aggregated: { client: 'website', status, timestamp },
    website: { client: 'website', status, timestamp, pushable: false },
  };
}

/** Legacy format of the `presence` event (format_legacy_presence_dict): active within 70 s of the last connection. */
export function legacyEventPresence(entry: PresenceEntry, dateJoined: number): Record<string, unknown> {
  const active = activeOf(entry, dateJoined);
  const isActive = active + PRESENCE.legacyEventActiveOffsetSeconds >= entry.lastConnected;
  return {
    website: { client: 'website', status: isActive ? 'active' : 'idle', timestamp: isActive ? active : entry.lastConnected, pushable: false },
  };
}

/** GET /users/{user_id_or_email}/presence: without client and pushable, `aggregated` offline once too old. */
export function singleUserPresence(entry: PresenceEntry, dateJoined: number, now: number): Record<string, { timestamp: number; status: 'active' | 'idle' | 'offline' }> {
  const legacy = legacyPresence(entry, dateJoined, now);
  const shown = (value: { status: 'active' | 'idle'; timestamp: number }) => ({ timestamp: value.timestamp, status: value.status });
  const aggregated: { timestamp: number; status: 'active' | 'idle' | 'offline' } = shown(legacy.aggregated);
  if (now - aggregated.timestamp > PRESENCE.offlineThresholdSeconds) aggregated.status = 'offline';
  return { website: shown(legacy.website), aggregated };
}

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { int } from '../api/api-schemas';

/**
 * Presence (zerver/views/presence.py): a user's last active and last connected times, kept live
 * in Redis and flushed to Postgres by the presence service (see docs/architecture.md).
 */

/** Zulip's presence constants: clients ping this often; older data shows as offline. */
export const PRESENCE = {
  /** PRESENCE_PING_INTERVAL_SECS. */
  pingIntervalSeconds: 60,
  /** OFFLINE_THRESHOLD_SECS. */
  offlineThresholdSeconds: 140,
} as const;

/** The modern format: by user id. */
export const modernPresenceSchema = z.object({ active_timestamp: int(), idle_timestamp: int() });
export type ModernPresence = z.infer<typeof modernPresenceSchema>;

/** One client's entry of the legacy format (always `website` since Zulip 7.0). */
export const legacyPresenceEntrySchema = z.object({
  client: z.string(),
  status: z.enum(['active', 'idle']),
  timestamp: int(),
  pushable: z.boolean().optional(),
});
/** The legacy format, by API email: `{ website, aggregated }`. */
export const legacyPresenceSchema = z.record(z.string(), legacyPresenceEntrySchema);
export type LegacyPresence = z.infer<typeof legacyPresenceSchema>;

export const updatePresenceParams = {
  status: param.string(),
  ping_only: param.bool().default(false),
  new_user_input: param.bool().default(false),
  slim_presence: param.bool().default(false),
  last_update_id: param.int().optional(),
  history_limit_days: param.int().optional(),
};

export const updatePresence = defineApiCommand('presence', 'update_presence', {
  route: 'POST /users/me/presence',
  summary: "Reports the caller's presence and, unless ping_only, answers the organization's presence data.",
  params: updatePresenceParams,
  response: z.object({
    presences: z.record(z.string(), z.union([modernPresenceSchema, legacyPresenceSchema])).optional(),
    presence_last_update_id: int().optional(),
    server_timestamp: z.number().optional(),
    zephyr_mirror_active: z.boolean().optional(),
  }),
});

export const getRealmPresence = defineApiCommand('presence', 'get_realm_presence', {
  route: 'GET /realm/presence',
  summary: "The organization's presence data, in the legacy format.",
  params: {},
  response: z.object({ presences: z.record(z.string(), legacyPresenceSchema), server_timestamp: z.number() }),
});

export const getUserPresenceParams = { user_id_or_email: param.string() };

export const getUserPresence = defineApiCommand('presence', 'get_user_presence', {
  route: 'GET /users/{user_id_or_email}/presence',
  summary: "One user's presence: `website` and `aggregated`, the latter `offline` once too old.",
  params: getUserPresenceParams,
  response: z.object({
    presence: z.record(z.string(), z.object({ timestamp: int(), status: z.enum(['active', 'idle', 'offline']) })),
  }),
});

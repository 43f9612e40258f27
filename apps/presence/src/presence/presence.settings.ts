import { Presence } from '@teamchat/contracts';

/** Zulip's presence settings (zproject/default_settings.py), and how ours are kept. */
export const PRESENCE = {
  ...Presence.PRESENCE,
  /** PRESENCE_UPDATE_MIN_FREQ_SECONDS: a time is rewritten only when this much newer. */
  updateMinFrequencySeconds: 55,
  /**
   * A user not active for this long who reports `active` has come back online, and the
   * organization hears of it at once: OFFLINE_THRESHOLD_SECS − PRESENCE_PING_INTERVAL_SECS − 10.
   */
  backOnlineAfterSeconds: Presence.PRESENCE.offlineThresholdSeconds - Presence.PRESENCE.pingIntervalSeconds - 10,
  /** USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: larger organizations get no presence events. */
  userLimitForEvents: 100,
  /** How far back a first fetch looks without history_limit_days. */
  defaultHistoryDays: 14,
  /** PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS: a legacy event says active within this of the last connection. */
  legacyEventActiveOffsetSeconds: 70,
  /** Legacy reads say active when the last activity is at most this old (Zulip: two minutes). */
  legacyActiveWindowSeconds: 120,
  /** Users flushed to Postgres per statement. */
  flushBatch: 500,
  /**
   * When Redis has not got an organization's presence (new, or lost), its sequence starts this
   * far above the highest flushed one, so ids given out after the last flush and lost with Redis
   * are never given out again (clients only ever ask for newer ones). Ids need only increase.
   */
  restoreSequenceGap: 1_000_000,
} as const;

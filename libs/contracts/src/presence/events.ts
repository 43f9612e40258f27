import { clientEventSchema, defineEvent } from '../event';

export const PresenceEvents = {
  /**
   * `typing` start/stop events. Channel typing (`message_type: "stream"`) reaches only queues
   * that declared the `stream_typing_notifications` capability; the gateway applies that rule.
   */
  typing: defineEvent('presence', 'typing', clientEventSchema),
  /** `user_status` events, to the organization. */
  userStatusChanged: defineEvent('presence', 'user_status_changed', clientEventSchema),
  /**
   * `presence` events, to the organization, when a user is new to presence or comes back online.
   * The event carries both formats: the legacy keys and `presences` (modern); the gateway gives
   * queues with the `simplified_presence_events` capability only the second, others the first.
   */
  presenceChanged: defineEvent('presence', 'presence_changed', clientEventSchema),
};

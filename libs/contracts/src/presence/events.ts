import { clientEventSchema, defineEvent } from '../event';

export const PresenceEvents = {
  /**
   * `typing` start/stop events. Channel typing (`message_type: "stream"`) reaches only queues
   * that declared the `stream_typing_notifications` capability; the gateway applies that rule.
   */
  typing: defineEvent('presence', 'typing', clientEventSchema),
  /** `user_status` events, to the organization. */
  userStatusChanged: defineEvent('presence', 'user_status_changed', clientEventSchema),
};

import { clientEventSchema, defineEvent } from '../event';

export const PushEvents = {
  /** `push_device` events: a device's registration status changed; to its owner only. */
  pushDeviceChanged: defineEvent('push', 'push_device_changed', clientEventSchema),
};

import type { QueueDescriptor } from '../queue-descriptor';

/**
 * Zulip's receiver_is_off_zulip, inverted: the recipients with at least one event queue that
 * takes messages (registered for every event type, or for `message`). Everyone else is off the
 * app, and may be notified by push or email. Queues are collected after their lifespan without a
 * poll, so an abandoned client stops counting by itself.
 */
export function recipientsWithClientOpen(recipientIds: readonly number[], queues: ReadonlyMap<number, readonly QueueDescriptor[]>): number[] {
  return recipientIds.filter((id) => (queues.get(id) ?? []).some((queue) => queue.eventTypes === null || queue.eventTypes.includes('message')));
}

import type { Messaging } from '@teamchat/contracts';
import type { StreamPosition } from '@teamchat/platform';

/**
 * What a queue was registered with. It never changes after POST /register, so every gateway
 * replica may cache it.
 */
export interface QueueDescriptor {
  queueId: string;
  realmId: number;
  userId: number;
  /** Zulip's event_types: null delivers every type. */
  eventTypes: string[] | null;
  /** Filters `message` events only (Zulip's narrow on register). */
  narrow: Messaging.NarrowTerm[];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /** client_capabilities as declared (unset flags are false). */
  capabilities: Record<string, boolean>;
  /** Seconds without a connected GET /events after which the queue is collected. */
  lifespanSeconds: number;
  /**
   * The event stream's position when the queue was registered. Events up to it had committed
   * before POST /register read its state, so they are in that state and never reach the queue,
   * however far the fan-out lags behind (Zulip's queue only gets what happens after it exists).
   */
  registeredAt?: StreamPosition;
}

/**
 * Whether an event (its stream sequence and store time) happened after the queue was registered.
 * Either newer sequence or newer time counts: a stream recreated after losing its store numbers
 * from 1 again, but its events are still newer in time.
 */
export function happenedAfterRegistration(queue: QueueDescriptor, seq: number, timeMs: number): boolean {
  return !queue.registeredAt || seq > queue.registeredAt.seq || timeMs > queue.registeredAt.timeMs;
}

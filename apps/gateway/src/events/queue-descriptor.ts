import type { Messaging } from '@teamchat/contracts';

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
}

import type { QueueDescriptor } from './queue-descriptor';

/** A queue as POST /register makes it with Zulip's defaults (every event type, no narrow), for the event queue specs. */
export function queueDescriptor(queue: Pick<QueueDescriptor, 'queueId' | 'realmId' | 'userId'> & Partial<QueueDescriptor>): QueueDescriptor {
  return {
    eventTypes: null,
    narrow: [],
    applyMarkdown: true,
    clientGravatar: false,
    allPublicStreams: false,
    capabilities: {},
    lifespanSeconds: 60,
    ...queue,
  };
}

import type { QueueDescriptor } from '../queue-descriptor';
import { recipientsWithClientOpen } from './off-app';

const queue = (userId: number, eventTypes: string[] | null): QueueDescriptor => ({
  queueId: `q${userId}-${String(eventTypes)}`,
  realmId: 1,
  userId,
  eventTypes,
  narrow: [],
  applyMarkdown: true,
  clientGravatar: false,
  allPublicStreams: false,
  capabilities: {},
  lifespanSeconds: 600,
});

describe('recipientsWithClientOpen (Zulip’s receiver_is_off_zulip)', () => {
  it('counts a queue for every event type or for messages, not one without messages, nor no queue', () => {
    const queues = new Map([
      [1, [queue(1, null)]],
      [2, [queue(2, ['message', 'typing'])]],
      [3, [queue(3, ['presence'])]],
      [5, [queue(5, ['presence']), queue(5, ['message'])]],
    ]);
    expect(recipientsWithClientOpen([1, 2, 3, 4, 5], queues)).toEqual([1, 2, 5]);
  });
});

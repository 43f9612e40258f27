import { successBody } from '../http/success-envelope.interceptor';
import { eventsAnswer } from './poll-events.route';

describe('eventsAnswer', () => {
  // Stored events are what the fan-out wrote (JSON.stringify) with the queue's id put first.
  const stored = [
    { id: 0, type: 'message', message: { content: 'ünïcödé \u2028 "quoted" \\ <b>', id: 7 }, flags: ['read'] },
    { id: 1, type: 'heartbeat' },
    { id: 2, type: 'presence', presence: { website: { status: 'active', timestamp: 1.5 } }, server_timestamp: 1763900000.25 },
  ];
  const texts = stored.map((event) => JSON.stringify(event));

  it.each([
    ['no events', [], []],
    ['events', texts, []],
    ['events and ignored parameters', texts, ['foo', 'bar"baz']],
  ])('writes what serializing the parsed events would, with %s', (_name, events: string[], ignored: string[]) => {
    const expected = JSON.stringify(successBody({ events: events.map((text) => JSON.parse(text) as unknown), queue_id: 'q:1"2' }, ignored));
    expect(eventsAnswer(events, 'q:1"2', ignored)).toBe(expected);
  });
});

import { randomBytes } from 'node:crypto';
import { eventStreamName } from '@teamchat/contracts';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import { EventRecorder, deleteEventStream } from './event-recorder';
import { TEST_NATS_URL } from './test-environment';

/**
 * `publishedByNow` replaces a fixed wait with a round trip to the server: every event another
 * connection published and the server took before the call (a JetStream publish acknowledged, as
 * a service's before it answers) is among what it returns, with no grace at all, even while
 * megabytes of them are still on their way to the recorder.
 */
describe('EventRecorder.publishedByNow', () => {
  const prefix = `r${randomBytes(4).toString('hex')}.`;
  const subject = 'event.test.changed.v1';
  let publisher: NatsConnection;
  let recorder: EventRecorder;

  beforeAll(async () => {
    publisher = await connect({ servers: TEST_NATS_URL });
    const manager = await publisher.jetstreamManager();
    await manager.streams.add({ name: eventStreamName(prefix), subjects: [`${prefix}event.>`] });
    recorder = await EventRecorder.start(TEST_NATS_URL, prefix);
  });
  afterAll(async () => {
    await recorder.stop();
    await publisher.drain();
    await deleteEventStream(TEST_NATS_URL, prefix);
  });

  it('has every event the server took before the call, however many are still on their way here, and only those of its subject', async () => {
    const codec = JSONCodec();
    // About 16 MB routed to the recorder at once: more than it reads in one turn of the event loop.
    const filler = 'x'.repeat(8_000);
    for (let n = 1; n < 2_000; n++) publisher.publish(`${prefix}${subject}`, codec.encode({ n, filler }));
    publisher.publish(`${prefix}event.test.other.v1`, codec.encode({ n: 0 }));
    // The last through JetStream, acknowledged, as a service publishes before it answers.
    await publisher.jetstream().publish(`${prefix}${subject}`, codec.encode({ n: 2_000 }));
    const events = await recorder.publishedByNow<{ n: number }>(subject, 0);
    expect(events.map((event) => event.n)).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
  });
});

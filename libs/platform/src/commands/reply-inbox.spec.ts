import { randomBytes } from 'node:crypto';
import { TEST_NATS_URL } from '@teamchat/testing';
import { ErrorCode, connect, type NatsConnection, type NatsError } from 'nats';
import { ReplyInbox } from './reply-inbox';

const subject = () => `test.${randomBytes(4).toString('hex')}.inbox`;
const text = (data: Uint8Array) => Buffer.from(data).toString();

describe('ReplyInbox', () => {
  let responder: NatsConnection;
  let caller: NatsConnection;
  let inbox: ReplyInbox;

  beforeAll(async () => {
    responder = await connect({ servers: TEST_NATS_URL });
    caller = await connect({ servers: TEST_NATS_URL });
    inbox = new ReplyInbox(caller);
  });
  afterAll(async () => {
    await responder.drain();
    if (!caller.isClosed()) await caller.drain();
  });

  it('gives each of many concurrent requests its own reply', async () => {
    const echo = subject();
    // Replies out of order: the slower the larger the number.
    responder.subscribe(echo, { callback: (_e, m) => setTimeout(() => m.respond(Buffer.from(`re ${text(m.data)}`)), 50 - Number(text(m.data))) });
    await responder.flush();
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => inbox.request(echo, Buffer.from(String(i)), 2000)));
    expect(replies.map((reply) => text(reply.data))).toEqual(Array.from({ length: 50 }, (_, i) => `re ${i}`));
  });

  it('fails at once with NoResponders when nobody subscribes to the subject', async () => {
    const started = Date.now();
    await expect(inbox.request(subject(), Buffer.from('x'), 5000)).rejects.toMatchObject({ code: ErrorCode.NoResponders });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails with Timeout past the deadline, and ignores a reply that comes later', async () => {
    const late = subject();
    let answered!: () => void;
    const answeredLate = new Promise<void>((resolve) => (answered = resolve));
    responder.subscribe(late, { callback: (_e, m) => setTimeout(() => (m.respond(Buffer.from('late')), answered()), 400) });
    await responder.flush();
    const error = (await inbox.request(late, Buffer.from('x'), 150).catch((e: unknown) => e)) as NatsError;
    expect(error.code).toBe(ErrorCode.Timeout);
    await answeredLate;
    // The inbox still serves the next request after the stray reply.
    const echo = subject();
    responder.subscribe(echo, { callback: (_e, m) => m.respond(m.data) });
    await responder.flush();
    expect(text((await inbox.request(echo, Buffer.from('still here'), 2000)).data)).toBe('still here');
  });

  it('fails what is pending with ConnectionClosed when the connection closes', async () => {
    const silent = subject();
    responder.subscribe(silent, { callback: () => undefined });
    await responder.flush();
    const pending = inbox.request(silent, Buffer.from('x'), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await caller.close();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });
});

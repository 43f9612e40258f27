import { randomBytes } from 'node:crypto';
import type { CommandDef } from '@teamchat/contracts';
import { TEST_NATS_URL } from '@teamchat/testing';
import { ZulipError } from '@teamchat/zulip';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import { z } from 'zod';
import { loadConfig } from '../config';
import { CommandClient } from './command-client';

const codec = JSONCodec();

/** A command on a subject of its own, answered (or not) by a hand-made responder speaking Nest's reply format. */
function command(): CommandDef<{ n: number }, { doubled: number }> {
  return { subject: `test.${randomBytes(4).toString('hex')}.double.v1`, service: 'messaging', payload: z.object({ n: z.number() }) };
}

describe('CommandClient', () => {
  let nats: NatsConnection;
  let client: CommandClient;

  beforeAll(async () => {
    nats = await connect({ servers: TEST_NATS_URL });
    client = new CommandClient(loadConfig({ NATS_URL: TEST_NATS_URL, NATS_REQUEST_TIMEOUT_MS: '300' }));
    await client.connect();
  });
  afterAll(async () => {
    await client.onApplicationShutdown();
    await nats.drain();
  });

  it('sends the payload in the packet Nest reads and returns the data of an ok reply', async () => {
    const def = command();
    const seen: unknown[] = [];
    nats.subscribe(def.subject, {
      callback: (_error, message) => {
        const packet = codec.decode(message.data) as { pattern: string; data: { n: number }; id: string };
        seen.push(packet);
        message.respond(codec.encode({ id: packet.id, response: { ok: true, data: { doubled: packet.data.n * 2 } }, isDisposed: true }));
      },
    });
    await nats.flush();
    await expect(client.call(def, { n: 21 })).resolves.toEqual({ doubled: 42 });
    expect(seen).toEqual([{ pattern: def.subject, data: { n: 21 }, id: expect.any(String), deadline: expect.any(Number), expires: expect.any(Number) }]);
    expect(client.isConnected()).toBe(true);
  });

  it('gives the command the time of the caller it is made for, when one is given (an HTTP request in the gateway)', async () => {
    const def = command();
    const seen: { deadline: number; expires: number }[] = [];
    nats.subscribe(def.subject, {
      callback: (_error, message) => {
        const packet = codec.decode(message.data) as { id: string; deadline: number; expires: number; data: { n: number } };
        seen.push({ deadline: packet.deadline, expires: packet.expires });
        message.respond(codec.encode({ id: packet.id, response: { ok: true, data: { doubled: packet.data.n * 2 } }, isDisposed: true }));
      },
    });
    await nats.flush();
    // A request that arrived long enough ago for less time to be left than the call's own timeout.
    const request = { deadline: Date.now() + 150, expires: Date.now() + 2000 };
    await expect(client.call(def, { n: 1 }, { timeoutMs: 10_000, within: request })).resolves.toEqual({ doubled: 2 });
    expect(seen).toEqual([{ deadline: request.expires - 500, expires: request.expires - 250 }]);
    // Past the request's time, the call is not made at all.
    await expect(client.call(def, { n: 2 }, { timeoutMs: 10_000, within: { deadline: Date.now() - 1000, expires: Date.now() + 100 } })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(seen).toHaveLength(1);
  });

  it('rethrows a ZulipError reply as the same error', async () => {
    const def = command();
    nats.subscribe(def.subject, {
      callback: (_error, message) => {
        const { id } = codec.decode(message.data) as { id: string };
        const error = new ZulipError('BAD_REQUEST', 'Invalid n', { n: 1 }).toBody();
        message.respond(codec.encode({ id, response: { ok: false, error }, isDisposed: true }));
      },
    });
    await nats.flush();
    const failure = await client.call(def, { n: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ZulipError);
    expect((failure as ZulipError).toBody()).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid n' });
  });

  it('answers SERVICE_UNAVAILABLE at once when nobody serves the subject', async () => {
    const started = Date.now();
    const failure = await client.call(command(), { n: 1 }, { timeoutMs: 5000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ZulipError);
    expect((failure as ZulipError).toBody()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', msg: 'Service temporarily unavailable' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers SERVICE_UNAVAILABLE when the service does not reply within the timeout', async () => {
    const def = command();
    nats.subscribe(def.subject, { callback: () => undefined });
    await nats.flush();
    const failure = await client.call(def, { n: 1 }).catch((error: unknown) => error);
    expect((failure as ZulipError).toBody()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', msg: 'Service temporarily unavailable' });
  });
});

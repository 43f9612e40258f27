import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Controller, Module, type INestApplicationContext } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import type { CommandDef } from '@teamchat/contracts';
import { TEST_NATS_URL } from '@teamchat/testing';
import { ZulipError } from '@teamchat/zulip';
import pino from 'pino';
import { z } from 'zod';
import { APP_CONFIG, loadConfig } from '../config';
import { LOGGER } from '../logger';
import { MetricsService } from '../metrics';
import { SERVICE_NAME } from '../service-name';
import { CommandClient } from './command-client';
import { CommandHandler } from './command-handler.decorator';
import { CommandServer } from './command-server';
import { CommandConnection } from './command-connection';
import { JSONCodec, connect } from 'nats';

const tag = randomBytes(4).toString('hex');
const def = <P, R>(name: string, payload: z.ZodType<P>): CommandDef<P, R> => ({
  subject: `test.${tag}.${name}.v1`,
  service: 'messaging',
  payload,
});

const double = def<{ n: number }, { doubled: number }>('double', z.object({ n: z.number() }));
const refuse = def<object, never>('refuse', z.object({}));
const crash = def<object, never>('crash', z.object({}));
const slow = def<{ ms: number }, { waited: number }>('slow', z.object({ ms: z.number() }));
const seenSoFar = def<object, { seen: number }>('seen', z.object({}));
const changeSubject = `test.${tag}.changed`;

/** Changes told on the commands' connection (what a cache invalidated by events counts). */
let seen = 0;

let handled = 0;

@Controller()
class TestHandlers {
  @CommandHandler(double)
  double(payload: { n: number }) {
    handled += 1;
    return { doubled: payload.n * 2 };
  }

  @CommandHandler(refuse)
  refuse(): never {
    throw new ZulipError('BAD_REQUEST', 'Not today', { why: 'test' });
  }

  @CommandHandler(seenSoFar)
  seenSoFar() {
    return { seen };
  }

  @CommandHandler(crash)
  crash(): never {
    throw new Error('secret internals');
  }

  @CommandHandler(slow)
  async slow(payload: { ms: number }) {
    await new Promise((resolve) => setTimeout(resolve, payload.ms));
    return { waited: payload.ms };
  }
}

const config = loadConfig({ NATS_URL: TEST_NATS_URL, NATS_REQUEST_TIMEOUT_MS: '2000' });

@Module({
  imports: [DiscoveryModule],
  controllers: [TestHandlers],
  providers: [
    CommandServer,
    CommandConnection,
    MetricsService,
    { provide: APP_CONFIG, useValue: config },
    { provide: LOGGER, useValue: pino({ level: 'silent' }) },
    { provide: SERVICE_NAME, useValue: 'messaging' },
  ],
})
class TestServiceModule {}

async function startService(): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(TestServiceModule, { logger: false });
  app.get(CommandConnection).subscribe(changeSubject, () => (seen += 1));
  await app.init();
  return app;
}

describe('CommandServer', () => {
  let client: CommandClient;

  beforeAll(async () => {
    client = new CommandClient(config);
    await client.connect();
  });
  afterAll(async () => {
    await client.onApplicationShutdown();
  });

  it('serves each @CommandHandler subject and answers with its data', async () => {
    const app = await startService();
    try {
      await expect(client.call(double, { n: 21 })).resolves.toEqual({ doubled: 42 });
      expect(app.get(CommandServer).isConnected()).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('never starts a command past its deadline (answering "not done" while its caller still listens), and refuses at once beyond its limit', async () => {
    const app = await startService();
    const nats = await connect({ servers: TEST_NATS_URL });
    try {
      const before = handled;
      const gone = { pattern: double.subject, id: 'gone', data: { n: 1 }, deadline: Date.now() - 1001, expires: Date.now() - 1 };
      await expect(nats.request(double.subject, JSONCodec().encode(gone), { timeout: 500 })).rejects.toThrow();
      expect(handled).toBe(before); // not run, not answered
      // Past its deadline to start while the caller still listens: not run, answered "not done" at once.
      const late = { pattern: double.subject, id: 'late', data: { n: 1 }, deadline: Date.now() - 1, expires: Date.now() + 5000 };
      const answer = JSONCodec().decode((await nats.request(double.subject, JSONCodec().encode(late), { timeout: 500 })).data);
      expect(answer).toMatchObject({ id: 'late', response: { ok: false, error: { code: 'SERVICE_UNAVAILABLE' } } });
      expect(handled).toBe(before);
      // Within its deadline, the same command runs.
      await expect(client.call(double, { n: 2 })).resolves.toEqual({ doubled: 4 });
      expect(handled).toBe(before + 1);
      // More at once than COMMAND_MAX_IN_FLIGHT (512): the ones beyond are refused at once, with Retry-After.
      const outcomes = await Promise.all(Array.from({ length: 530 }, () => client.call(slow, { ms: 300 }).then(() => 'ok', (error: ZulipError) => `${error.code}:${String(error.extra['retry-after'])}`)));
      expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(512);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual(Array(18).fill('SERVICE_UNAVAILABLE:1'));
    } finally {
      await nats.close();
      await app.close();
    }
  });

  it('hands a listener on the commands\' connection each event published before a command, before that command runs', async () => {
    const app = await startService();
    // Another process publishes (as EventBus does, on its own connection) and knows the server has it.
    const publisher = await connect({ servers: TEST_NATS_URL });
    try {
      for (let i = 1; i <= 100; i++) {
        const before = seen;
        publisher.publish(changeSubject);
        await publisher.flush();
        await expect(client.call(seenSoFar, {})).resolves.toEqual({ seen: before + 1 });
      }
    } finally {
      await publisher.close();
      await app.close();
    }
  });

  it('refuses a payload its schema rejects without calling the handler, as BAD_REQUEST', async () => {
    const app = await startService();
    try {
      const before = handled;
      const failure = await client.call(double, { n: 'many' } as never).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ZulipError);
      expect((failure as ZulipError).toBody()).toMatchObject({ code: 'BAD_REQUEST', msg: 'Malformed request' });
      expect(handled).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('passes a ZulipError on with its code, message and extra fields, and hides any other failure', async () => {
    const app = await startService();
    try {
      const refused = (await client.call(refuse, {}).catch((error: unknown) => error)) as ZulipError;
      expect(refused.toBody()).toMatchObject({ code: 'BAD_REQUEST', msg: 'Not today', status: 400, extra: { why: 'test' } });
      const crashed = (await client.call(crash, {}).catch((error: unknown) => error)) as ZulipError;
      expect(crashed.toBody()).toEqual(expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', msg: 'Internal server error' }));
      expect(JSON.stringify(crashed.toBody())).not.toContain('secret');
    } finally {
      await app.close();
    }
  });

  it('on shutdown finishes the commands in flight and replies before closing, and takes no new ones', async () => {
    const app = await startService();
    const inFlight = client.call(slow, { ms: 400 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = app.close();
    await expect(inFlight).resolves.toEqual({ waited: 400 });
    await closing;
    expect(app.get(CommandServer).isConnected()).toBe(false);
    // Nobody serves the subject any more: NATS says so at once.
    const after = (await client.call(double, { n: 1 }).catch((error: unknown) => error)) as ZulipError;
    expect(after.toBody()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('shares a subject between replicas in one queue group: each request is served once', async () => {
    const [first, second] = [await startService(), await startService()];
    try {
      const before = handled;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => client.call(double, { n })));
      expect(answers.map((answer) => answer.doubled)).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
      expect(handled - before).toBe(20);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

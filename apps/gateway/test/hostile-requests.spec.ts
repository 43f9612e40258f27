import { request } from 'node:http';
import { connect } from 'node:net';
import { Factory, TEST_ROOT_HOST, TestSystem, expectError, expectSuccess, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

interface Raw {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/**
 * The reproductions of issue 22 that the gateway and the services answer (the uploads service's
 * own are in apps/uploads/test/hostile-uploads.spec.ts; the generated run over every endpoint is
 * hostile-input.spec.ts): each answers with Zulip's envelope and a 4xx, or succeeds where Zulip
 * succeeds, and stored data stays as it was.
 */
describe('hostile requests', () => {
  let system: TestSystem;
  let factory: Factory;
  let owner: TestUser;
  let member: TestUser;
  let channelId: number;
  const subdomain = 'hostile';
  const on = { subdomain };

  /** One request exactly as given: path, headers and body untouched. */
  const send = (method: string, path: string, options: { auth?: TestUser; headers?: Record<string, string>; body?: Buffer | string } = {}) =>
    new Promise<Raw>((resolve, reject) => {
      const headers: Record<string, string | number> = { Host: `${subdomain}.${TEST_ROOT_HOST}`, ...options.headers };
      if (options.auth) headers.Authorization = `Basic ${Buffer.from(`${options.auth.email}:${options.auth.apiKey}`).toString('base64')}`;
      if (options.body !== undefined) headers['Content-Length'] = Buffer.byteLength(options.body);
      const req = request({ host: '127.0.0.1', port: system.ports.gateway, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // asserted on below
          }
          resolve({ status: res.statusCode ?? 0, body, text });
        });
      });
      req.on('error', reject);
      req.end(options.body);
    });
  const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
  const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const expectEnvelope = (res: Raw, status: number, code: string, msg?: string) => {
    expect({ status: res.status, result: res.body.result, code: res.body.code }).toEqual({ status, result: 'error', code });
    expect(typeof res.body.msg).toBe('string');
    if (msg !== undefined) expect(res.body.msg).toBe(msg);
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain });
    owner = await factory.user(realm, { role: Role.OWNER });
    member = await factory.user(realm, { role: Role.MEMBER });
    channelId = (await factory.channel(realm, { name: 'hostile', subscribers: [owner, member] })).id;
  });
  afterAll(() => system.stop());

  describe('paths are matched exactly, and admission comes before every handler', () => {
    it.each([
      ['POST', '/API/V1/register'],
      ['DELETE', '/API/V1/events'],
      ['GET', '/API/V1/server_settings'],
      ['GET', '/Api/v1/users'],
      ['GET', '/api/v1/Users'],
      ['POST', '/api/V1/messages'],
      ['GET', '/API/V1/openapi.json'],
    ])('%s %s is no route: 404 NOT_FOUND, credentials or not', async (method, path) => {
      expectEnvelope(await send(method, path), 404, 'NOT_FOUND', 'Not Found');
      expectEnvelope(await send(method, path, { auth: owner }), 404, 'NOT_FOUND', 'Not Found');
    });

    it('answers a doubled slash as no route, never a handler reached without credentials', async () => {
      expectEnvelope(await send('GET', '/api/v1//users'), 404, 'NOT_FOUND');
      expectEnvelope(await send('DELETE', '//api/v1/events'), 404, 'NOT_FOUND');
      const register = await send('POST', '/api/v1//register');
      expect(register.status).toBe(404);
    });

    it('still admits the lower-case paths as before', async () => {
      expectEnvelope(await send('POST', '/api/v1/register'), 401, 'UNAUTHORIZED');
      expectEnvelope(await send('DELETE', '/api/v1/events'), 401, 'UNAUTHORIZED');
      expect((await send('GET', '/api/v1/server_settings')).body.result).toBe('success');
    });
  });

  describe('JSON parameters', () => {
    it('refuses JSON nested deeper than Zulip parses (10,000 levels) as invalid JSON', async () => {
      const deep = `${'['.repeat(10000)}${']'.repeat(10000)}`;
      const res = await send('PATCH', '/api/v1/settings', { auth: owner, headers: formHeaders, body: form({ twenty_four_hour_time: deep }) });
      expectEnvelope(res, 400, 'BAD_REQUEST', 'twenty_four_hour_time is not valid JSON');
      // In a query string too (kept under Node's 16 KB header limit).
      const lists = encodeURIComponent(`${'['.repeat(1100)}${']'.repeat(1100)}`);
      const narrow = await send('GET', `/api/v1/messages?anchor=newest&num_before=1&num_after=0&narrow=${lists}`, { auth: owner });
      expectEnvelope(narrow, 400, 'BAD_REQUEST', 'narrow is not valid JSON');
    });

    it('refuses a NUL inside a JSON list with a 400', async () => {
      const before = await system.db.message.count();
      const res = await send('POST', '/api/v1/messages', {
        auth: owner,
        headers: formHeaders,
        body: 'type=stream&to=%5B%22a%5Cu0000b%22%5D&topic=x&content=y',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: expect.any(String) });
      expect(await system.db.message.count()).toBe(before);
    });
  });

  describe('bodies', () => {
    it('answers a body marked gzip that is not gzip with 400, and reads a real gzip body', async () => {
      const before = await system.db.message.count();
      const res = await send('POST', '/api/v1/messages', {
        auth: owner,
        headers: { ...formHeaders, 'Content-Encoding': 'gzip' },
        body: form({ type: 'stream', to: String(channelId), topic: 'x', content: 'y' }),
      });
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(await system.db.message.count()).toBe(before);
      const { gzipSync } = await import('node:zlib');
      const real = await send('POST', '/api/v1/messages', {
        auth: owner,
        headers: { ...formHeaders, 'Content-Encoding': 'gzip' },
        body: gzipSync(form({ type: 'stream', to: String(channelId), topic: 'gz', content: 'compressed' })),
      });
      expect(real.body.result).toBe('success');
    });

    it('answers an unknown content encoding with 415 and the envelope', async () => {
      const res = await send('POST', '/api/v1/messages', {
        auth: owner,
        headers: { ...formHeaders, 'Content-Encoding': 'zstd-ish' },
        body: form({ type: 'stream', to: String(channelId), topic: 'x', content: 'y' }),
      });
      expectEnvelope(res, 415, 'BAD_REQUEST');
    });

    it('refuses multipart without a boundary, or with an empty one, on any operation', async () => {
      for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""']) {
        const res = await send('POST', '/api/v1/messages', { auth: owner, headers: { 'Content-Type': type }, body: 'x' });
        expectEnvelope(res, 400, 'BAD_REQUEST');
      }
    });

    it('refuses multipart fields beyond the body limit altogether, on operations that take no file', async () => {
      const boundary = 'B0undary';
      const field = (name: string, size: number) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${'x'.repeat(size)}\r\n`;
      const body = `${field('a', 1024 * 1024 - 10)}${field('b', 1024 * 1024 - 10)}${field('c', 1024 * 1024 - 10)}--${boundary}--\r\n`;
      const res = await send('PATCH', '/api/v1/settings', {
        auth: owner,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expectEnvelope(res, 413, 'BAD_REQUEST');
      const file = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nx\r\n--${boundary}--\r\n`;
      const withFile = await send('PATCH', '/api/v1/settings', {
        auth: owner,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: file,
      });
      expectEnvelope(withFile, 400, 'BAD_REQUEST');
    });

    it('refuses a multipart body that ends early', async () => {
      const res = await send('PATCH', '/api/v1/settings', {
        auth: owner,
        headers: { 'Content-Type': 'multipart/form-data; boundary=B' },
        body: '--B\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nx',
      });
      expectEnvelope(res, 400, 'BAD_REQUEST');
    });
  });

  describe('what the HTTP parser refuses', () => {
    it('answers a query string past the 16 KB header limit with 431 and the envelope', async () => {
      const res = await send('GET', `/api/v1/users?client_gravatar=${'x'.repeat(20_000)}`, { auth: owner });
      expectEnvelope(res, 431, 'BAD_REQUEST');
      expect(res.body.msg).toBe('Request header fields too large');
    });

    it('answers a malformed request line with 400 and the envelope', async () => {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(system.ports.gateway, '127.0.0.1', () => socket.end('GET /api/v1/users HTTP/9.x\r\n\r\n'));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ result: 'error', msg: 'Malformed request', code: 'BAD_REQUEST' });
    });
  });

  describe('ids beyond what a column holds', () => {
    it('treats 2^31 and larger as no such object, not a database error', async () => {
      expectEnvelope(await send('DELETE', '/api/v1/scheduled_messages/2147483648', { auth: owner }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
      expectEnvelope(await send('DELETE', '/api/v1/attachments/2147483648', { auth: owner }), 400, 'BAD_REQUEST');
      // Beyond 2^53 the segment is no integer's canonical text: no route, as for any non-integer.
      expectEnvelope(await send('DELETE', '/api/v1/attachments/99999999999999999999', { auth: owner }), 404, 'NOT_FOUND');
      expectEnvelope(await send('GET', '/api/v1/messages/2147483648', { auth: owner }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expectEnvelope(await send('GET', '/api/v1/users/2147483648', { auth: owner }), 400, 'BAD_REQUEST', 'No such user');
    });

    it('refuses a retention period a column cannot hold', async () => {
      const res = await send('PATCH', `/api/v1/streams/${channelId}`, {
        auth: owner,
        headers: formHeaders,
        body: form({ message_retention_days: '2147483648' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.result).toBe('error');
      const stored = await system.db.stream.findUniqueOrThrow({ where: { id: channelId } });
      expect(stored.messageRetentionDays).toBeNull();
    });
  });

  describe('large requests answer quickly', () => {
    it('refuses a 700 KB recipient list at once', async () => {
      const to = JSON.stringify(Array.from({ length: 35000 }, (_, i) => `u${i}@e.test`));
      const started = Date.now();
      const res = await send('POST', '/api/v1/messages', { auth: owner, headers: formHeaders, body: form({ type: 'direct', to, content: 'hi' }) });
      expect(res.status).toBe(400);
      expect(res.body.result).toBe('error');
      // Not a timing assertion of the product: a 503 here would mean the gateway gave up at 10 s.
      expect(Date.now() - started).toBeLessThan(9000);
    });

    it('serves num_before=5000 with an empty narrow', async () => {
      await factory.channelMessages(member, { id: channelId }, 'many', 50);
      const res = await send('GET', '/api/v1/messages?anchor=newest&num_before=5000&num_after=0&narrow=%5B%5D', { auth: owner });
      const body = expectSuccess({ status: res.status, headers: new Headers(), body: res.body });
      expect((body.messages as unknown[]).length).toBeGreaterThanOrEqual(50);
    });

    it('changes 2,000 subscription properties in one request', async () => {
      const changes = Array.from({ length: 2000 }, (_, i) => ({ stream_id: channelId, property: 'pin_to_top', value: i % 2 === 1 }));
      const res = await send('POST', '/api/v1/users/me/subscriptions/properties', {
        auth: member,
        headers: formHeaders,
        body: form({ subscription_data: JSON.stringify(changes) }),
      });
      expect(res.body).toMatchObject({ result: 'success' });
      const sub = await system.db.subscription.findFirstOrThrow({ where: { userId: member.id, streamId: channelId } });
      expect(sub.pinToTop).toBe(true);
    });
  });

  it('is still ready after all of it', async () => {
    const ready = await system.api.get('/health/ready', {}, on);
    expect(ready.status).toBe(200);
    expectError(await system.api.get('/users', {}, { ...on, auth: { email: member.email, apiKey: 'x'.repeat(32) } }), 401, 'UNAUTHORIZED', 'Invalid API key');
  });
});

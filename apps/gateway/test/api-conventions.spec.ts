import {
  Factory,
  TestSystem,
  expectError,
  expectNoInternals,
  expectSuccess,
  type ApiResponse,
  type TestUser,
} from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

const MIB = 1024 * 1024;

describe('API conventions', () => {
  let system: TestSystem;
  let owner: TestUser;
  let member: TestUser;
  const on = { subdomain: 'conventions' };
  const seen: ApiResponse<unknown>[] = [];
  /** Every response of this file is checked for internals at the end. */
  const keep = <T>(res: ApiResponse<T>): ApiResponse<T> => {
    seen.push(res);
    return res;
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    const factory = new Factory(system.db);
    const realm = await factory.organization({ subdomain: on.subdomain });
    owner = await factory.user(realm, { role: Role.OWNER });
    member = await factory.user(realm, { role: Role.MEMBER });
  });
  afterAll(() => system.stop());

  describe('error envelope', () => {
    it('writes a missing parameter as 400 with result, msg, code and var_name', async () => {
      const res = keep(await system.api.post('/fetch_api_key', { username: owner.email }, on));
      expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", { var_name: 'password' });
      expect(Object.keys(res.body as object).sort()).toEqual(['code', 'msg', 'result', 'var_name']);
    });

    it('writes an invalid parameter as 400 BAD_REQUEST with exactly result, msg and code', async () => {
      const res = keep(await system.api.get('/users', { client_gravatar: 'yes please' }, { ...on, auth: owner }));
      expectError(res, 400, 'BAD_REQUEST', 'client_gravatar is not valid JSON');
      expect(Object.keys(res.body as object).sort()).toEqual(['code', 'msg', 'result']);
    });

    it('writes an authentication failure as 401 and an unknown organization as 404', async () => {
      expectError(
        keep(await system.api.get('/users', {}, { ...on, auth: { email: owner.email, apiKey: 'x'.repeat(32) } })),
        401,
        'UNAUTHORIZED',
        'Invalid API key',
      );
      expectError(keep(await system.api.get('/users', {}, { subdomain: 'no-such-org', auth: owner })), 404, 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
    });
  });

  describe('routes', () => {
    it('answers an unknown API route with a 404 JSON NOT_FOUND error', async () => {
      expectError(keep(await system.api.get('/no_such_endpoint', {}, { ...on, auth: owner })), 404, 'NOT_FOUND', 'Not Found');
      expectError(keep(await system.api.get('/no_such_endpoint', {}, on)), 404, 'NOT_FOUND', 'Not Found');
      expectError(keep(await system.api.raw('GET', '/../../etc/passwd', undefined, on)), 404, 'NOT_FOUND', 'Not Found');
      const unknown = await system.api.get('/no_such_endpoint', {}, { ...on, headers: { 'X-Request-Id': 'trace-404' } });
      expect(unknown.headers.get('x-request-id')).toBe('trace-404');
    });
  });

  describe('success envelope', () => {
    it('answers a successful POST with 200, not 201', async () => {
      const res = keep(await system.api.post('/fetch_api_key', { username: owner.email, password: owner.password }, on));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', msg: '', api_key: owner.apiKey, email: owner.email, user_id: owner.id });
    });

    it('lists parameters the endpoint does not support in ignored_parameters_unsupported, sorted', async () => {
      const res = keep(await system.api.get('/users', { zebra: 1, apple: 'x', client_gravatar: true }, { ...on, auth: owner }));
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['apple', 'zebra']);

      const post = keep(
        await system.api.post('/fetch_api_key', { username: owner.email, password: owner.password, api_version: 2 }, on),
      );
      expect(expectSuccess(post).ignored_parameters_unsupported).toEqual(['api_version']);
    });

    it('leaves ignored_parameters_unsupported out when every parameter is supported', async () => {
      const res = keep(await system.api.get('/users', { client_gravatar: true }, { ...on, auth: owner }));
      expect(expectSuccess(res)).not.toHaveProperty('ignored_parameters_unsupported');
    });
  });

  describe('request encodings', () => {
    it('accepts POST parameters as multipart/form-data fields', async () => {
      const res = keep(
        await system.api.post('/fetch_api_key', { username: owner.email, password: owner.password, extra: 'x' }, { ...on, multipart: true }),
      );
      expect(expectSuccess(res)).toEqual({
        result: 'success',
        msg: '',
        api_key: owner.apiKey,
        email: owner.email,
        user_id: owner.id,
        ignored_parameters_unsupported: ['extra'],
      });
    });

    it('reports a missing field of a multipart body like a form body', async () => {
      const res = keep(await system.api.post('/fetch_api_key', { username: owner.email }, { ...on, multipart: true }));
      expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", { var_name: 'password' });
    });

    it('refuses a form body over MAX_REQUEST_BODY_BYTES with a 413 JSON error', async () => {
      const body = `username=${'a'.repeat(MIB + 10)}&password=x`;
      const res = keep(await system.api.raw('POST', '/fetch_api_key', body, on));
      expectError(res, 413, 'BAD_REQUEST', 'Request body too large');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses a multipart field over MAX_REQUEST_BODY_BYTES with a 413 JSON error', async () => {
      const res = keep(
        await system.api.post('/fetch_api_key', { username: 'a'.repeat(MIB + 10), password: 'x' }, { ...on, multipart: true }),
      );
      expectError(res, 413, 'BAD_REQUEST', 'Request body too large');
    });

    it('accepts a body just under the limit', async () => {
      const padding = 'p'.repeat(MIB - 4096);
      const res = keep(
        await system.api.post('/fetch_api_key', { username: owner.email, password: owner.password, padding }, on),
      );
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['padding']);
    });

    it('answers a truncated multipart body with a 400 JSON error', async () => {
      const body = '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nabc';
      const res = keep(await system.api.raw('POST', '/fetch_api_key', body, { ...on, contentType: 'multipart/form-data; boundary=xyz' }));
      expectError(res, 400, 'BAD_REQUEST', 'Malformed request body');
    });

    it('answers a multipart body without a boundary with a 400 JSON error', async () => {
      const res = keep(await system.api.raw('POST', '/fetch_api_key', 'garbage', { ...on, contentType: 'multipart/form-data' }));
      expectError(res, 400, 'BAD_REQUEST', 'Malformed request body');
    });

    it('answers bad percent-encoding in a form body with a 4xx JSON error', async () => {
      const res = keep(await system.api.raw('POST', '/fetch_api_key', 'username=%ZZ%&password=%E0%A4%A', on));
      expectError(res, 400, 'BAD_REQUEST', 'Enter a valid email address.');
    });

    it('answers bad percent-encoding in a query string with a 4xx JSON error', async () => {
      const res = keep(await system.api.raw('GET', '/users?user_ids=%ZZ', undefined, { ...on, auth: owner }));
      expectError(res, 400, 'BAD_REQUEST', 'user_ids is not valid JSON');
    });

    it('keeps the last value of a repeated parameter', async () => {
      const gravatarOff = keep(
        await system.api.raw('GET', '/users?client_gravatar=true&client_gravatar=false', undefined, { ...on, auth: owner }),
      );
      const members = (expectSuccess(gravatarOff) as { members: { avatar_url: string | null }[] }).members;
      expect(members.every((m) => typeof m.avatar_url === 'string')).toBe(true);

      const body = new URLSearchParams([
        ['username', 'nobody@example.test'],
        ['username', owner.email],
        ['password', owner.password],
      ]).toString();
      const res = keep(await system.api.raw('POST', '/fetch_api_key', body, on));
      expect(expectSuccess(res).user_id).toBe(owner.id);
    });

    it('reads form parameters from the body and ignores a JSON body', async () => {
      const res = keep(
        await system.api.raw('POST', '/fetch_api_key', JSON.stringify({ username: owner.email }), { ...on, contentType: 'application/json' }),
      );
      expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", { var_name: 'username' });
    });
  });

  describe('request ids', () => {
    it('echoes a well-formed X-Request-Id', async () => {
      const res = keep(await system.api.get('/users', {}, { ...on, auth: owner, headers: { 'X-Request-Id': 'trace-42.a_b' } }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('trace-42.a_b');
    });

    it('echoes the request id on errors too', async () => {
      const res = keep(await system.api.get('/users', {}, { ...on, headers: { 'X-Request-Id': 'failing-call' } }));
      expect(res.status).toBe(401);
      expect(res.headers.get('x-request-id')).toBe('failing-call');
    });

    // GET /events writes its answer's headers itself (PollEventsRoute), not through the other routes' path.
    it('echoes the request id on an event poll, answered or refused', async () => {
      const register = keep(await system.api.post<{ queue_id: string }>('/register', { event_types: '["message"]' }, { ...on, auth: owner }));
      expect(register.status).toBe(200);
      const polled = keep(
        await system.api.get('/events', { queue_id: register.body.queue_id, last_event_id: -1, dont_block: true }, { ...on, auth: owner, headers: { 'X-Request-Id': 'poll-1' } }),
      );
      expect(polled.status).toBe(200);
      expect(polled.headers.get('x-request-id')).toBe('poll-1');
      expect(polled.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const refused = keep(await system.api.get('/events', { queue_id: 'no-such-queue', last_event_id: -1 }, { ...on, auth: owner, headers: { 'X-Request-Id': 'poll-2' } }));
      expectError(refused, 400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: no-such-queue', { queue_id: 'no-such-queue' });
      expect(refused.headers.get('x-request-id')).toBe('poll-2');
      const fresh = keep(await system.api.get('/events', { queue_id: register.body.queue_id, last_event_id: -1, dont_block: true }, { ...on, auth: owner }));
      expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('replaces a missing or unsafe request id with a fresh UUID', async () => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
      const none = keep(await system.api.get('/users', {}, { ...on, auth: owner }));
      const unsafe = keep(await system.api.get('/users', {}, { ...on, auth: owner, headers: { 'X-Request-Id': 'a b<script>' } }));
      expect(none.headers.get('x-request-id')).toMatch(uuid);
      expect(unsafe.headers.get('x-request-id')).toMatch(uuid);
      expect(none.headers.get('x-request-id')).not.toBe(unsafe.headers.get('x-request-id'));
    });
  });

  it('never shows a stack trace, an exception name or a source path in any response of this file', async () => {
    keep(await system.api.raw('POST', '/fetch_api_key', 'username=%', { ...on, contentType: 'text/plain' }));
    keep(await system.api.raw('POST', '/fetch_api_key', '\u0000\u0001', { ...on, contentType: 'multipart/form-data; boundary=' }));
    keep(await system.api.get('/users', { user_ids: '[' }, { ...on, auth: member }));
    expect(seen.length).toBeGreaterThan(20);
    for (const res of seen) {
      expectNoInternals(res);
      expect(typeof res.body).toBe('object');
    }
  });

  describe('rate limits (a second system with RATE_LIMIT_ENABLED)', () => {
    let limited: TestSystem;
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;
    let dave: TestUser;
    const org = { subdomain: 'limited' };
    /**
     * Unauthenticated calls are limited per client address. The tests reach the gateway from
     * loopback, a trusted proxy, so each test names its client with X-Forwarded-For.
     */
    const from = (client: string) => ({ ...org, headers: { 'X-Forwarded-For': client } });

    beforeAll(async () => {
      limited = await TestSystem.start({
        env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_API_PER_USER: '3', RATE_LIMIT_API_PER_IP: '4', RATE_LIMIT_AUTH_ATTEMPTS: '3' },
      });
      const factory = new Factory(limited.db);
      const realm = await factory.organization({ subdomain: org.subdomain });
      alice = await factory.user(realm);
      bob = await factory.user(realm);
      carol = await factory.user(realm);
      dave = await factory.user(realm);
    });
    afterAll(() => limited.stop());

    it('counts API calls per user and answers the call over the limit with 429 RATE_LIMIT_HIT', async () => {
      const started = Math.floor(Date.now() / 1000);
      for (const remaining of [2, 1, 0]) {
        const res = await limited.api.get('/users', {}, { ...org, auth: alice });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('3');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
        const reset = Number(res.headers.get('x-ratelimit-reset'));
        expect(reset).toBeGreaterThanOrEqual(started);
        expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61); // the window began at or before this answer
      }

      const res = await limited.api.get('/users', {}, { ...org, auth: alice });
      expect(res.status).toBe(429);
      const body = res.body as Record<string, unknown>;
      expect(body).toEqual({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': expect.any(Number) });
      expect(body['retry-after']).toBeGreaterThan(0);
      expect(body['retry-after']).toBeLessThanOrEqual(60);
      const retryAfter = res.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(body['retry-after'] as number);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(started);
    });

    it('does not count event polling against the limit (clients poll as often as events come)', async () => {
      const register = await limited.api.post<{ queue_id: string }>('/register', { fetch_event_types: [] }, { ...org, auth: dave });
      expect(register.headers.get('x-ratelimit-remaining')).toBe('2');
      for (let i = 0; i < 5; i++) {
        const res = await limited.api.get('/events', { queue_id: register.body.queue_id, last_event_id: -1, dont_block: true }, { ...org, auth: dave });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
      }
      const res = await limited.api.get('/users', {}, { ...org, auth: dave });
      expect(res.headers.get('x-ratelimit-remaining')).toBe('1');
    });

    it('keeps each user in a bucket of their own', async () => {
      const res = await limited.api.get('/users', {}, { ...org, auth: bob });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('2');
    });

    it('refuses fetch_api_key after RATE_LIMIT_AUTH_ATTEMPTS wrong passwords, even with the right one', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await limited.api.post('/fetch_api_key', { username: carol.email, password: `wrong-${i}` }, from('198.51.100.1'));
        expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
      }
      const blocked = await limited.api.post('/fetch_api_key', { username: carol.email, password: 'wrong-again' }, from('198.51.100.2'));
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': expect.any(Number),
      });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

      const right = await limited.api.post('/fetch_api_key', { username: carol.email.toUpperCase(), password: carol.password }, from('198.51.100.3'));
      expect(right.status).toBe(429);
      expect((right.body as { code: string }).code).toBe('RATE_LIMIT_HIT');
    });

    it('does not count successful logins, nor another username, against the failure limit', async () => {
      for (let i = 0; i < 4; i++) {
        const res = await limited.api.post('/fetch_api_key', { username: bob.email, password: bob.password }, from(`198.51.100.${10 + i}`));
        expect(expectSuccess(res).api_key).toBe(bob.apiKey);
      }
    });

    it('limits unauthenticated calls per client address, with rate-limit headers', async () => {
      for (const remaining of [3, 2, 1, 0]) {
        const res = await limited.api.post('/fetch_api_key', {}, from('203.0.113.5'));
        expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", { var_name: 'username' });
        expect(res.headers.get('x-ratelimit-limit')).toBe('4');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      }
      const res = await limited.api.post('/fetch_api_key', {}, from('203.0.113.5'));
      expect(res.status).toBe(429);
      expect((res.body as { code: string }).code).toBe('RATE_LIMIT_HIT');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);

      const neighbour = await limited.api.post('/fetch_api_key', {}, from('203.0.113.6'));
      expect(neighbour.status).toBe(400);
    });

    it('does not let a client escape the per-address limit by writing its own X-Forwarded-For entries', async () => {
      // A proxy appends the real client (192.0.2.9) after whatever the client sent.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.api.post('/fetch_api_key', {}, from(`10.${i}.${i}.${i}, 192.0.2.${i}, 192.0.2.9`));
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
    });
  });
});

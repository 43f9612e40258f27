import http from 'node:http';
import { COMMAND_SERVICES } from '@teamchat/contracts';
import { Factory, TestSystem, expectMatchesOpenApi, expectSuccess } from '@teamchat/testing';
import { ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from '@teamchat/zulip';

const REALM_KEYS = ['realm_description', 'realm_icon', 'realm_name', 'realm_uri', 'realm_url', 'realm_web_public_access_enabled'];

describe('GET /server_settings, health and metrics', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start();
    const factory = new Factory(system.db);
    await factory.organization({ subdomain: 'lobby', name: 'The Lobby', enableSpectatorAccess: true });
    await factory.organization({ subdomain: 'sso', name: 'Single Sign-On', passwordAuthEnabled: false });
  });
  afterAll(() => system.stop());

  describe('GET /server_settings', () => {
    it('needs no credentials and describes a known organization', async () => {
      const body = expectSuccess(await system.api.get('/server_settings', {}, { subdomain: 'lobby' }));
      expectMatchesOpenApi('get', '/server_settings', body);
      expect(body).toMatchObject({
        zulip_feature_level: 420,
        zulip_version: ZULIP_VERSION,
        realm_url: 'http://lobby.testserver.local',
        realm_uri: 'http://lobby.testserver.local',
        realm_name: 'The Lobby',
        realm_web_public_access_enabled: true,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        is_incompatible: false,
      });
      expect(ZULIP_FEATURE_LEVEL).toBe(420);
      expect((body.authentication_methods as Record<string, boolean>).password).toBe(true);
      expect(body).not.toHaveProperty('ignored_parameters_unsupported');
    });

    it('answers the Python client, which sends junk Basic credentials, like anyone else', async () => {
      for (const auth of ['Basic ' + Buffer.from('nobody@example.test:not-a-key').toString('base64'), 'Basic !!!', 'Bearer x']) {
        const res = await system.api.get('/server_settings', {}, { subdomain: 'lobby', auth });
        const body = expectSuccess(res);
        expectMatchesOpenApi('get', '/server_settings', body);
        expect(body).toMatchObject({ zulip_feature_level: 420, zulip_version: ZULIP_VERSION, realm_name: 'The Lobby' });
      }
    });

    it('leaves out the organization keys when the host names no organization', async () => {
      for (const subdomain of ['no-such-org', '']) {
        const body = expectSuccess(await system.api.get('/server_settings', {}, { subdomain }));
        expectMatchesOpenApi('get', '/server_settings', body);
        expect(body).toMatchObject({ zulip_feature_level: 420, zulip_version: ZULIP_VERSION });
        for (const key of REALM_KEYS) expect(body).not.toHaveProperty(key);
      }
    });

    it('reports password authentication off for an organization that disabled it', async () => {
      const body = expectSuccess(await system.api.get('/server_settings', {}, { subdomain: 'sso' }));
      expectMatchesOpenApi('get', '/server_settings', body);
      expect(body).toMatchObject({ email_auth_enabled: false, realm_name: 'Single Sign-On' });
      expect((body.authentication_methods as Record<string, boolean>).password).toBe(false);
    });

    it('flags the ZulipInvalid user agent as incompatible', async () => {
      const res = await system.api.get('/server_settings', {}, { subdomain: 'lobby', headers: { 'User-Agent': 'ZulipInvalid/1.0' } });
      expect(expectSuccess(res).is_incompatible).toBe(true);
    });

    it('lists any parameter as unsupported', async () => {
      const res = await system.api.get('/server_settings', { foo: 'bar' }, { subdomain: 'lobby' });
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['foo']);
    });
  });

  describe('health', () => {
    it('is live', async () => {
      const res = await system.api.get('/health/live');
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: 'ok' } });
    });

    it('is ready, listing Redis, NATS and every service', async () => {
      const res = await system.api.get('/health/ready');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ready: true,
        checks: { serving: true, redis: true, nats: true, ...Object.fromEntries(COMMAND_SERVICES.map((s) => [s, true])) },
      });
      expect(COMMAND_SERVICES).toEqual(['messaging', 'scheduler', 'presence', 'users-groups', 'uploads', 'push']);
    });

    it('answers health on any host, even one naming no organization', async () => {
      for (const subdomain of ['no-such-org', '']) {
        expect((await system.api.get('/health/ready', {}, { subdomain })).status).toBe(200);
        expect((await system.api.get('/health/live', {}, { subdomain })).status).toBe(200);
      }
    });

    it('exits with code 0 on SIGTERM, turns not-ready while a service is down, and ready again once it is back', async () => {
      expect(await system.stopService('presence')).toBe(0);

      const down = await system.api.get('/health/ready');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({
        ready: false,
        checks: { serving: true, redis: true, nats: true, ...Object.fromEntries(COMMAND_SERVICES.map((s) => [s, s !== 'presence'])) },
      });

      await system.startService('presence');
      const up = await system.api.get('/health/ready');
      expect(up.status).toBe(200);
      expect((up.body as { checks: Record<string, boolean> }).checks.presence).toBe(true);
    });
  });

  describe('metrics', () => {
    it('serves Prometheus text with request durations on the gateway', async () => {
      await system.api.get('/server_settings', {}, { subdomain: 'lobby' });
      for (const subdomain of ['lobby', 'no-such-org', '']) {
        const res = await system.api.get('/metrics', {}, { subdomain });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        const text = res.body as unknown as string;
        expect(text).toContain('# TYPE http_request_duration_seconds histogram');
        expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/server_settings",status="200"\} \d+/);
      }
    });

    it('serves Prometheus text on each command service health port', async () => {
      const res = await fetch(`http://127.0.0.1:${system.ports['users-groups']}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('command_duration_seconds');
    });
  });

  it('on SIGTERM answers not-ready at once while it keeps serving for its grace period, closing each connection, then exits 0', async () => {
    const factory = new Factory(system.db);
    const org = await factory.organization({ subdomain: 'draining' });
    const user = await factory.user(org, {});
    await system.stopService('gateway');
    await system.startService('gateway', true, { SHUTDOWN_GRACE_SECONDS: '3' });
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: system.ports.gateway, path, headers: { Host: system.api.hostFor('draining'), ...headers } }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
          })
          .on('error', reject);
      });
    expect((await get('/health/ready')).status).toBe(200);

    const exited = system.stopService('gateway');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await get('/health/ready');
    expect({ status: ready.status, serving: (JSON.parse(ready.body) as { checks: { serving: boolean } }).checks.serving }).toEqual({ status: 503, serving: false });
    const served = await get('/api/v1/users/me', { Authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` });
    expect({ status: served.status, connection: served.connection }).toEqual({ status: 200, connection: 'close' });
    expect(await exited).toBe(0);
    await system.startService('gateway', true, { SHUTDOWN_GRACE_SECONDS: '0' });
  });

  it('stops the gateway with exit code 0 on SIGTERM', async () => {
    expect(await system.stopService('gateway')).toBe(0);
  });
});

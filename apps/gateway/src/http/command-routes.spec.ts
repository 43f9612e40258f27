import 'reflect-metadata';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINT_REGISTRY } from '@teamchat/contracts';
import express from 'express';
import pino from 'pino';
import type { AdmitCaller } from '../auth/admit-caller';
import type { Sessions } from '../auth/sessions';
import type { CommandClient } from '@teamchat/platform';
import { CommandRoutes } from './command-routes';
import type { ApiRequest } from './request-context';

/**
 * FrontDoor serves command routes through CommandRoutes.match instead of Express's router; the
 * two must pick the same route for every path. Here Express's router answers with the subject
 * of the route it picked (the admission step fails with it), and `match` is asked the same.
 */
describe('CommandRoutes.match picks the route Express would', () => {
  const routes = new CommandRoutes({} as AdmitCaller, {} as CommandClient, pino({ level: 'silent' }), {} as Sessions);
  // Express's routes end in `serve`: here it only names the route Express picked.
  (routes as unknown as { serve: (def: { subject: string }, req: ApiRequest, res: express.Response) => void }).serve = (def, req, res) =>
    void res.json({ msg: `${req.method} ${def.subject}` });
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'simple');
    app.use((req, _res, next) => {
      (req as { ctx?: unknown }).ctx = { requestId: 'test', user: null, ignored: [] };
      next();
    });
    app.use(routes.router);
    app.use((_req, res) => res.status(404).json({ msg: 'none' }));
    server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Paths to try for an endpoint: its parameters filled with values of several kinds. */
  function samplePaths(path: string): string[] {
    const fills = ['7', 'me', 'iago%40zulip.com', 'abc', '0', '-3', 'a%2Fb', 'x/y'];
    return fills.map((fill) => `/api/v1${path.replace(/\{[a-z_]+\}/g, fill)}`);
  }

  const commandEndpoints = ENDPOINT_REGISTRY.filter((endpoint) => 'subject' in endpoint);

  it('covers the declared command routes', () => {
    expect(commandEndpoints.length).toBeGreaterThan(50);
  });

  it('agrees with Express on every declared path shape filled with sample values, in any letter case (upper case: no route for both)', async () => {
    const checked: string[] = [];
    for (const endpoint of commandEndpoints) {
      const method = endpoint.method.toUpperCase();
      for (const path of [...samplePaths(endpoint.path), samplePaths(endpoint.path)[0].toUpperCase()]) {
        const viaExpress = await fetch(`${base}${path}?x=1`, { method }).then((res) => res.json() as Promise<{ msg: string }>);
        const matched = routes.match({ method, url: `${path}?x=1` } as ApiRequest);
        // Express answers with the subject of the route it picked, or 'none'.
        const expressChose = viaExpress.msg === 'none' ? undefined : viaExpress.msg;
        const frontChose = matched ? `${method} ${matched.endpoint.subject}` : undefined;
        if (frontChose !== undefined || expressChose !== undefined) checked.push(path);
        // `match` may leave a request to Express (undefined), never pick another route.
        if (frontChose !== undefined) expect({ path, route: frontChose }).toEqual({ path, route: expressChose });
      }
    }
    expect(checked.length).toBeGreaterThan(commandEndpoints.length);
  });

  it('takes the ordinary requests itself rather than leaving them to Express', () => {
    const at = (method: string, url: string) => routes.match({ method, url } as ApiRequest)?.endpoint.path;
    expect(at('POST', '/api/v1/messages')).toBe('/messages');
    expect(at('GET', '/api/v1/messages?anchor=newest')).toBe('/messages');
    expect(at('GET', '/api/v1/users/me')).toBe('/users/me');
    expect(at('GET', '/api/v1/users/7')).toBe('/users/{user_id}');
    expect(at('GET', '/api/v1/users/iago%40zulip.com')).toBe('/users/{email}');
  });

  it('matches literal segments exactly: another letter case is no route, in match or in Express', async () => {
    for (const path of ['/API/V1/register', '/api/v1/Messages', '/Api/v1/users/me', '/api/v1/USERS/7']) {
      expect(routes.match({ method: 'GET', url: path } as ApiRequest)).toBeUndefined();
      expect(routes.match({ method: 'POST', url: path } as ApiRequest)).toBeUndefined();
      const viaExpress = await fetch(`${base}${path}`).then((res) => res.json() as Promise<{ msg: string }>);
      expect(viaExpress.msg).toBe('none');
    }
  });

  it('leaves trailing slashes, empty segments, undecodable segments and unknown paths to Express', () => {
    const at = (method: string, url: string) => routes.match({ method, url } as ApiRequest);
    expect(at('POST', '/api/v1/messages/')).toBeUndefined();
    expect(at('GET', '/api/v1//users')).toBeUndefined();
    expect(at('GET', '/api/v1/users/%E0%A4%A')).toBeUndefined();
    expect(at('GET', '/api/v1/no_such_thing')).toBeUndefined();
    expect(at('OPTIONS', '/api/v1/messages')).toBeUndefined();
  });
});

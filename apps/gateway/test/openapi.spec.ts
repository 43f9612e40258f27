import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ENDPOINT_REGISTRY } from '@teamchat/contracts';
import { Factory, TestSystem, workspaceRoot } from '@teamchat/testing';
import { SERVER_VERSION } from '@teamchat/zulip';

type Document = { openapi: string; info: { version: string }; servers: { url: string }[]; paths: Record<string, Record<string, { security: unknown[] }>> };

describe('GET /api/v1/openapi.json', () => {
  let system: TestSystem;
  let document: Document;

  beforeAll(async () => {
    system = await TestSystem.start();
    await new Factory(system.db).organization({ subdomain: 'docs' });
    const res = await system.api.get<Document>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    document = res.body;
  });
  afterAll(() => system.stop());

  it('needs no credentials and is the document itself, not a Zulip envelope', () => {
    expect(document).not.toHaveProperty('result');
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(SERVER_VERSION);
    expect(document.servers).toEqual([{ url: 'http://testserver.local/api/v1' }]);
  });

  it('is the same for any caller and any host: junk or wrong credentials, another organization, none at all', async () => {
    const callers = [
      { auth: 'Basic ' + Buffer.from('nobody@example.test:not-a-key').toString('base64') },
      { auth: 'Bearer x' },
      { subdomain: 'docs', auth: 'Basic !!!' },
      { subdomain: 'no-such-organization' },
    ];
    for (const options of callers) {
      const res = await system.api.get<Document>('/openapi.json', {}, options);
      expect([options, res.status]).toEqual([options, 200]);
      expect(res.body).toEqual(document);
    }
  });

  it('validates as OpenAPI 3.1', () => {
    const run = spawnSync(process.execPath, [path.join(workspaceRoot(), 'tools/validate-openapi.mjs')], {
      input: JSON.stringify(document),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('valid OpenAPI 3.1');
    expect(run.status).toBe(0);
  });

  it('the validator refuses a document that is not valid', () => {
    const broken = { ...document, paths: { '/x': { get: { responses: { '200': { content: 'nope' } } } } } };
    const run = spawnSync(process.execPath, [path.join(workspaceRoot(), 'tools/validate-openapi.mjs')], {
      input: JSON.stringify(broken),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
  });

  it('lists every declared endpoint, and nothing else', () => {
    const listed = Object.entries(document.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`));
    expect(listed.sort()).toEqual(ENDPOINT_REGISTRY.map((e) => `${e.method} ${e.path}`).sort());
  });

  it('every endpoint it lists is served: unauthenticated calls get 401 where credentials are needed, never 404', async () => {
    for (const [route, methods] of Object.entries(document.paths)) {
      // A path parameter's smallest valid value: the route matches, the resource need not exist.
      const concrete = route.replace(/\{[a-z_]+\}/g, '1');
      for (const [method, operation] of Object.entries(methods)) {
        const res = await system.api.request(method.toUpperCase(), concrete, method === 'get' ? undefined : {}, { subdomain: 'docs' });
        const needsUser = operation.security.length > 0 && !operation.security.some((s) => Object.keys(s as object).length === 0);
        if (needsUser) expect([`${method} ${route}`, res.status]).toEqual([`${method} ${route}`, 401]);
        else expect([`${method} ${route}`, res.status]).not.toEqual([`${method} ${route}`, 404]);
      }
    }
  });
});

describe('the server version', () => {
  it('is package.json’s', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(workspaceRoot(), 'package.json'), 'utf8')) as { version: string };
    expect(SERVER_VERSION).toBe(pkg.version);
  });
});

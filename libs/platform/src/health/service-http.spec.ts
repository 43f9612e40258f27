import { createServer } from 'node:net';
import type { HealthReport } from '@teamchat/contracts';
import { ServiceHttp } from './service-http';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe("a command service's HTTP listener (health and metrics)", () => {
  let http: ServiceHttp;
  let base: string;
  let report: HealthReport;
  let metricsFail = false;

  beforeAll(async () => {
    const port = await freePort();
    http = new ServiceHttp({
      health: () => Promise.resolve(report),
      metrics: () => (metricsFail ? Promise.reject(new Error('registry broken')) : Promise.resolve('# TYPE up gauge\nup 1\n')),
    });
    await http.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => http.close());

  it('answers HEAD as GET, without the body', async () => {
    const res = await fetch(`${base}/health/live`, { method: 'HEAD' });
    expect({ status: res.status, length: res.headers.get('content-length'), body: await res.text() }).toEqual({ status: 200, length: '15', body: '' });
  });

  it('answers the liveness probe', async () => {
    const res = await fetch(`${base}/health/live`);
    expect({ status: res.status, type: res.headers.get('content-type'), body: await res.json() }).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { status: 'ok' },
    });
  });

  it('answers readiness with the report: 200 when every check holds, 503 when one fails', async () => {
    report = { service: 'messaging', ready: true, checks: { database: true, nats: true } };
    const ready = await fetch(`${base}/health/ready?verbose=1`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: report });
    report = { service: 'messaging', ready: false, checks: { database: false, nats: true } };
    const notReady = await fetch(`${base}/health/ready`);
    expect({ status: notReady.status, body: await notReady.json() }).toEqual({ status: 503, body: report });
  });

  it('serves the metrics as Prometheus text, and a broken registry as a 500 without its error', async () => {
    const res = await fetch(`${base}/metrics`);
    expect({ status: res.status, type: res.headers.get('content-type'), body: await res.text() }).toEqual({
      status: 200,
      type: 'text/plain; version=0.0.4; charset=utf-8',
      body: '# TYPE up gauge\nup 1\n',
    });
    metricsFail = true;
    const broken = await fetch(`${base}/metrics`);
    metricsFail = false;
    const text = await broken.text();
    expect(broken.status).toBe(500);
    expect(text).not.toContain('registry broken');
  });

  it("answers anything else with Nest's 404, whatever the method or body", async () => {
    const unknown = await fetch(`${base}/api/v1/users`);
    expect({ status: unknown.status, body: await unknown.json() }).toEqual({
      status: 404,
      body: { message: 'Cannot GET /api/v1/users', error: 'Not Found', statusCode: 404 },
    });
    const posted = await fetch(`${base}/health/live`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect({ status: posted.status, body: await posted.json() }).toEqual({
      status: 404,
      body: { message: 'Cannot POST /health/live', error: 'Not Found', statusCode: 404 },
    });
  });
});

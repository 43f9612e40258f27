import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HealthReport } from '@teamchat/contracts';

/** What a command service's HTTP listener answers from: its health and its metrics. */
export interface ServiceHttpSources {
  health(): Promise<HealthReport>;
  metrics(): Promise<string>;
}

/**
 * A command service's only HTTP: the Kubernetes probes (GET /health/live, /health/ready) and
 * Prometheus (GET /metrics), on HEALTH_PORT. Plain node:http rather than a Nest HTTP
 * application: Express, its body parsers and Nest's route explorer were a tenth of a second
 * of each service's start (and its memory) for three routes. The answers are those Nest gave:
 * JSON for health (503 when not ready), Prometheus text, and Nest's 404 for anything else.
 */
export class ServiceHttp {
  private readonly server: Server;

  constructor(private readonly sources: ServiceHttpSources) {
    this.server = createServer((req, res) => void this.serve(req, res));
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A probe sends no body; whatever one sends is read and dropped.
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    // HEAD is GET without the body, as Express answered it.
    const get = method === 'GET' || method === 'HEAD';
    try {
      if (get && path === '/health/live') return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ status: 'ok' }));
      if (get && path === '/health/ready') {
        const report = await this.sources.health();
        return send(res, report.ready ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(report));
      }
      if (get && path === '/metrics') return send(res, 200, 'text/plain; version=0.0.4; charset=utf-8', await this.sources.metrics());
      send(res, 404, 'application/json; charset=utf-8', JSON.stringify({ message: `Cannot ${method} ${path}`, error: 'Not Found', statusCode: 404 }));
    } catch {
      send(res, 500, 'application/json; charset=utf-8', JSON.stringify({ statusCode: 500, message: 'Internal server error' }));
    }
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  // node:http writes no body for HEAD.
  res.end(body);
}

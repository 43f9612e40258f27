import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the relay stand-in received it; `body` is the decoded form or JSON. */
export interface RelayRequest {
  /** The path after `/api/v1/remotes/`, e.g. `push/e2ee/register`. */
  endpoint: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: Record<string, unknown>;
}

/**
 * How the stand-in answers: `ok` as a relay that accepts everything; `refuse` refuses this
 * server (403 INVALID_ZULIP_SERVER); `fail` answers 500; `hang` never answers; or an exact
 * error answer (`{ status, code, msg }`), e.g. a registration refused with
 * INVALID_BOUNCER_PUBLIC_KEY.
 */
export type RelayMode = 'ok' | 'refuse' | 'fail' | 'hang' | { status: number; code: string; msg: string };

/**
 * A real HTTP server on a free local port standing in for the push relay (Zulip's bouncer):
 * it records every request, answers registrations with a new `device_id` and notifications
 * with Zulip's counts, and can be told to refuse, fail, hang, or be down (its port closed).
 */
export class PushRelayStandIn {
  readonly received: RelayRequest[] = [];
  private modes = new Map<string, RelayMode>();
  private nextDeviceId = 1000;
  /** Tokens registered the older way: `<user_id>:<token_kind>:<token>`. */
  readonly tokens = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PushRelayStandIn> {
    const relay = new PushRelayStandIn(0);
    const port = await relay.listen(0);
    (relay as { port: number }).port = port;
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The environment that points a system at this relay. */
  env(): Record<string, string> {
    return { PUSH_RELAY_URL: this.url, PUSH_RELAY_ORG_ID: 'test-server-uuid', PUSH_RELAY_ORG_KEY: 'test-server-key' };
  }

  /** Sets how `endpoint` (or, without it, every endpoint) is answered from now on. */
  setMode(mode: RelayMode, endpoint = '*'): void {
    this.modes.set(endpoint, mode);
  }

  /** Back to accepting everything; forgets what was received. */
  reset(): void {
    this.modes.clear();
    this.received.length = 0;
  }

  of(endpoint: string): RelayRequest[] {
    return this.received.filter((request) => request.endpoint === endpoint);
  }

  /** Waits until `count` requests to `endpoint` have arrived. */
  async waitFor(endpoint: string, count = 1, timeoutMs = 10000): Promise<RelayRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.of(endpoint).length < count) {
      if (Date.now() > deadline) throw new Error(`Expected ${count} request(s) to ${endpoint}, got ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.of(endpoint);
  }

  /** Closes the port: connections are refused until `up()`. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async up(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  stop(): Promise<void> {
    return this.down();
  }

  private listen(port: number): Promise<number> {
    const server = createServer((request, response) => void this.handle(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const contentType = String(request.headers['content-type'] ?? '');
    const endpoint = (request.url ?? '').replace(/^\/api\/v1\/remotes\//, '');
    let body: Record<string, unknown>;
    try {
      body = contentType.startsWith('application/json') ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
    } catch {
      body = { unparsed: text };
    }
    this.received.push({ endpoint, method: request.method ?? '', headers: request.headers, contentType, body });

    const mode = this.modes.get(endpoint) ?? this.modes.get('*') ?? 'ok';
    const answer = (status: number, json: Record<string, unknown>) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    };
    if (mode === 'hang') return;
    if (mode === 'fail') return answer(500, { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
    if (mode === 'refuse') return answer(403, { result: 'error', msg: 'Zulip server auth failure: key does not match role', code: 'INVALID_ZULIP_SERVER' });
    if (typeof mode === 'object') return answer(mode.status, { result: 'error', msg: mode.msg, code: mode.code });
    if (endpoint === 'push/e2ee/register') return answer(200, { result: 'success', msg: '', device_id: this.nextDeviceId++ });
    if (endpoint === 'push/e2ee/notify') {
      const requests = Array.isArray(body.push_requests) ? body.push_requests : [];
      return answer(200, { result: 'success', msg: '', android_successfully_sent_count: requests.length, apple_successfully_sent_count: 0 });
    }
    // The older token endpoints (Zulip's bouncer: zilencer/views.py), keyed by user, kind and token.
    const tokenKey = `${String(body.user_id)}:${String(body.token_kind)}:${String(body.token)}`;
    if (endpoint === 'push/register') {
      this.tokens.add(tokenKey);
      return answer(200, { result: 'success', msg: '' });
    }
    if (endpoint === 'push/unregister') {
      if (!this.tokens.delete(tokenKey)) return answer(400, { result: 'error', msg: 'Token does not exist', code: 'BAD_REQUEST' });
      return answer(200, { result: 'success', msg: '' });
    }
    if (endpoint === 'push/test_notification') {
      if (!this.tokens.has(tokenKey)) return answer(400, { result: 'error', msg: 'Device not recognized by the push bouncer', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' });
      return answer(200, { result: 'success', msg: '' });
    }
    if (endpoint === 'push/notify') {
      const userTokens = [...this.tokens].filter((key) => key.startsWith(`${String(body.user_id)}:`));
      return answer(200, {
        result: 'success',
        msg: '',
        total_android_devices: userTokens.filter((key) => key.split(':')[1] === '2').length,
        total_apple_devices: userTokens.filter((key) => key.split(':')[1] === '1').length,
        deleted_devices: { android_devices: [], apple_devices: [] },
        realm: null,
      });
    }
    answer(404, { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' });
  }
}

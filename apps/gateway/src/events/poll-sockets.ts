import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Injectable } from '@nestjs/common';
import { MetricsService, Shutdown } from '@teamchat/platform';
import { enterJson } from '../http/json-routes';
import { PollEventsRoute } from './poll-events.route';

/** Node's own limit on a request's head (--max-http-header-size): a longer one is node:http's to refuse. */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = '\r\n\r\n';
/** A poll's request line: GET, a target of visible ASCII under either prefix, HTTP/1.1. */
const POLL_LINE = /^GET ((?:\/api\/v1|\/json)\/events(?:\?[\x21-\x7e]*)?) HTTP\/1\.1$/;
/** `name: value`, the name a token, the value without control characters (tab aside), its spaces trimmed. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*$/;
/** Headers that bring a body or another protocol: node:http's to handle. */
const NOT_A_PLAIN_GET = new Set(['transfer-encoding', 'expect', 'upgrade']);

/** A poll's headers as read (names in lower case, each given once), and whether the connection stays open after it. */
export interface PollHeaders {
  headers: IncomingHttpHeaders;
  keepAlive: boolean;
}

/**
 * A request head (up to its blank line, latin1 as node reads it) that is a plain poll: GET of
 * /api/v1/events or /json/events over HTTP/1.1, no body (no Content-Length but 0, no
 * Transfer-Encoding), no Expect or Upgrade, a Host, every header well formed and given once. Anything
 * else answers undefined, for node:http to serve or refuse as it does any request.
 */
export function plainPoll(head: string): (PollHeaders & { url: string }) | undefined {
  const [requestLine, lines] = splitHead(head);
  const url = pollTarget(requestLine);
  const headers = url === undefined ? undefined : plainHeaders(lines);
  return headers && { url: url!, ...headers };
}

/** A head's request line, and its header lines (empty when it has none). */
function splitHead(head: string): [string, string] {
  const lineEnd = head.indexOf('\r\n');
  return lineEnd < 0 ? [head, ''] : [head.slice(0, lineEnd), head.slice(lineEnd + 2)];
}

/** The request line's target, if it is a poll's. */
function pollTarget(requestLine: string): string | undefined {
  return POLL_LINE.exec(requestLine)?.[1];
}

/** The header lines of a plain poll (see plainPoll), or undefined. */
function plainHeaders(lines: string): PollHeaders | undefined {
  const headers: IncomingHttpHeaders = {};
  let keepAlive = true;
  for (const line of lines.split('\r\n')) {
    const header = HEADER_LINE.exec(line);
    if (!header) return undefined;
    const name = header[1].toLowerCase();
    const value = header[2];
    if (name in headers || NOT_A_PLAIN_GET.has(name)) return undefined;
    if (name === 'content-length' && value !== '0') return undefined;
    if (name === 'connection') {
      const options = value.toLowerCase().split(',').map((option) => option.trim());
      if (options.includes('upgrade')) return undefined;
      if (options.includes('close')) keepAlive = false;
    }
    headers[name] = value;
  }
  // Node:http refuses an HTTP/1.1 request without Host (400).
  return 'host' in headers ? { headers, keepAlive } : undefined;
}

let dateSecond = 0;
let dateText = '';
/** The `Date` header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  if (now - dateSecond >= 1000) {
    dateSecond = now - (now % 1000);
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * The request of a poll read off the socket: the members of IncomingMessage that the poll's
 * rules use (identifyRequest, traceRequest, enterJson, AdmitCaller, sendError and
 * afterRequestBody: it has no body, so it is `complete` at once).
 */
class PollCall {
  readonly method = 'GET';
  readonly complete = true;

  constructor(
    public url: string,
    readonly headers: IncomingHttpHeaders,
  ) {}

  resume(): this {
    return this;
  }
}

/**
 * The answer to a poll, handed to its connection as its status line, headers and body: the
 * members of ServerResponse the poll's rules use (sendSuccessJson, sendError, LongPoll's
 * `close`, traceRequest). `close` comes once, when the answer is written or the client has gone.
 */
class PollReply {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  private readonly headers = new Map<string, string>();
  private closeListeners?: (() => void)[];
  private closed = false;

  constructor(private readonly connection: PollConnection) {}

  setHeader(name: string, value: string | number): this {
    this.headers.set(name, headerValue(value));
    return this;
  }

  writeHead(status: number, headers?: Record<string, string | number> | string[]): this {
    this.statusCode = status;
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) this.headers.set(headers[i], headerValue(headers[i + 1]));
    else if (headers) for (const name of Object.keys(headers)) this.headers.set(name, headerValue(headers[name]));
    return this;
  }

  end(body = ''): this {
    if (this.writableEnded) return this;
    this.headersSent = true;
    this.writableEnded = true;
    let head = `HTTP/1.1 ${this.statusCode} ${STATUS_CODES[this.statusCode] ?? 'Unknown'}\r\n`;
    if (!this.headers.has('Content-Length')) this.headers.set('Content-Length', String(Buffer.byteLength(body)));
    for (const [name, value] of this.headers) head += `${name}: ${value}\r\n`;
    this.connection.answered(head, body);
    process.nextTick(() => this.close());
    return this;
  }

  on(event: string, listener: () => void): this {
    if (event === 'close') (this.closeListeners ??= []).push(listener);
    return this;
  }

  once(event: string, listener: () => void): this {
    return this.on(event, listener);
  }

  /** The answer written or the client gone, whichever is first. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners ?? []) listener();
  }
}

/** A header's value as written: the values are the server's own, but never one that could end the line. */
function headerValue(value: string | number): string {
  const text = String(value);
  if (text.includes('\n') || text.includes('\r')) throw new TypeError('a header value with a line break');
  return text;
}

/**
 * One connection while it carries polls: reads each request's head, serves a plain poll, waits
 * for its answer before reading the next (a request sent meanwhile is kept), and hands the
 * connection to node:http, with every byte not yet served, at the first request that is not
 * a plain poll. Idle, or with a head unfinished, it ends after the keep-alive timeout.
 */
class PollConnection {
  private pending?: Buffer;
  private reply?: PollReply;
  /** Whether the poll being answered asked to keep the connection (no `Connection: close`). */
  private keepAlive = true;
  /** The header lines of the last request read, and what they said (undefined: not a plain poll's). */
  private lastLines?: string;
  private lastHeaders?: PollHeaders;
  private gone = false;
  private readonly onData = (chunk: Buffer) => this.received(chunk);
  private readonly onClose = () => this.closed();
  /** The client has sent its last byte (a half-close): the connection ends after what it asked is answered. */
  private clientEnded = false;
  private readonly onEnd = () => this.ended();
  private readonly onTimeout = () => this.socket.destroy();
  private readonly onError = () => this.socket.destroy();

  constructor(
    private readonly socket: Socket,
    private readonly owner: PollSockets,
  ) {
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    socket.on('end', this.onEnd);
  }

  start(): void {
    this.next();
  }

  /** Waiting for a request (no poll being answered, nothing of one read). */
  idle(): boolean {
    return !this.reply && !this.pending;
  }

  /** Ends an idle connection (the server closing). */
  end(): void {
    this.finish();
  }

  private received(chunk: Buffer): void {
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.reply) this.next();
    // A client sending on while its poll waits: keep up to one head of it, then stop reading.
    else if (this.pending.length > MAX_HEAD_BYTES) this.socket.pause();
  }

  /** Serves the next request read, if its head is all here. */
  private next(): void {
    const bytes = this.pending;
    const headEnd = bytes ? bytes.indexOf(HEAD_END, 0, 'latin1') : -1;
    if (!bytes || headEnd < 0) {
      // A head beyond node's limit is node's to refuse (431).
      if (bytes && bytes.length > MAX_HEAD_BYTES) return this.handOver();
      // Half-closed by the client: all it sent has been answered (a head left unfinished never will be).
      if (this.clientEnded) return this.finish();
      // Waiting for a request, or for the rest of one: the keep-alive timeout runs.
      return void this.socket.setTimeout(this.owner.keepAliveMs());
    }
    if (headEnd > MAX_HEAD_BYTES) return this.handOver();
    const [requestLine, lines] = splitHead(bytes.toString('latin1', 0, headEnd));
    const url = pollTarget(requestLine);
    if (url === undefined) return this.handOver();
    // A client's polls repeat their headers: read once per connection, the same strings then
    // find the caller's credential without hashing them again (CredentialCache.knownBasic).
    if (lines !== this.lastLines) {
      this.lastLines = lines;
      this.lastHeaders = plainHeaders(lines);
    }
    const headers = this.lastHeaders;
    if (!headers) return this.handOver();
    const call = new PollCall(url, headers.headers);
    const request = call as unknown as IncomingMessage;
    // /json/events is /api/v1/events admitted by the session, as FrontDoor makes it for any request.
    enterJson(request);
    if (!this.owner.route.handles(request)) return this.handOver();
    const rest = headEnd + HEAD_END.length;
    this.pending = rest < bytes.length ? bytes.subarray(rest) : undefined;
    const reply = new PollReply(this);
    this.reply = reply;
    this.keepAlive = headers.keepAlive;
    this.socket.setTimeout(0);
    // serve answers every failure itself; one it could not answer leaves nothing to wait for.
    this.owner.route.serve(request, reply as unknown as ServerResponse).catch(() => this.socket.destroy());
  }

  /**
   * The current poll's answer (its status line and headers, its body), written in one piece
   * with the connection's own headers as node writes them; then the next request is served, or
   * the connection ended (`Connection: close`, or the gateway draining).
   */
  answered(head: string, body: string): void {
    this.reply = undefined;
    if (this.gone) return;
    const keepAlive = this.keepAlive && !this.owner.draining();
    const connection = keepAlive ? `keep-alive\r\nKeep-Alive: timeout=${Math.floor(this.owner.keepAliveMs() / 1000)}` : 'close';
    const text = `${head}Date: ${httpDate()}\r\nConnection: ${connection}\r\n\r\n${body}`;
    if (!keepAlive) return this.finish(text);
    this.socket.write(text);
    if (this.socket.isPaused()) this.socket.resume();
    this.next();
  }

  private ended(): void {
    this.clientEnded = true;
    if (!this.reply) this.next();
  }

  /** Ends the connection, after a last answer if any. */
  private finish(text?: string): void {
    this.detach();
    // Ended by us: errors until it is closed are of no interest.
    this.socket.on('error', () => undefined);
    if (text === undefined) this.socket.end();
    else this.socket.end(text);
  }

  private closed(): void {
    this.gone = true;
    this.owner.forget(this);
    this.reply?.close();
  }

  /** Node:http takes the connection from here, with the bytes not yet served, as if it had just been accepted. */
  private handOver(): void {
    const bytes = this.pending;
    this.pending = undefined;
    this.detach();
    this.socket.setTimeout(0);
    if (this.socket.isPaused()) this.socket.resume();
    this.owner.handOver(this.socket, bytes);
  }

  private detach(): void {
    this.socket.removeListener('data', this.onData);
    this.socket.removeListener('close', this.onClose);
    this.socket.removeListener('error', this.onError);
    this.socket.removeListener('timeout', this.onTimeout);
    this.socket.removeListener('end', this.onEnd);
    this.owner.forget(this);
  }
}

/**
 * GET /events straight off the socket. Measured under `npm run bench:events`, node:http's
 * request and response objects, their events and header checks cost about 16 µs of CPU per
 * answered poll (its floor spends 43–44 µs a delivery, the same floor over bare sockets
 * 26–28), a fifth of the gateway's CPU per delivery. So the server's connections come here
 * first: a connection whose requests are plain polls (`plainPoll`: no body, no other protocol,
 * headers well formed) is served by PollEventsRoute directly, with the same rules as any poll
 * (admission, parameters, the long poll, the answer's text); at its first request that is
 * anything else it is handed to node:http with all that it has sent, and stays there. Node:http
 * thus keeps every other route and every refusal of a malformed request.
 */
@Injectable()
export class PollSockets {
  private readonly connections = new Set<PollConnection>();
  private server?: Server;
  private toNode: ((socket: Socket) => void)[] = [];

  constructor(
    readonly route: PollEventsRoute,
    private readonly shutdown: Shutdown,
    private readonly metrics: MetricsService,
  ) {}

  /** Takes the server's connections first; its own connection handling gets the ones handed over. */
  installOn(server: Server): void {
    this.server = server;
    this.toNode = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      this.metrics.pollConnections.inc({ outcome: 'opened' });
      const connection = new PollConnection(socket, this);
      this.connections.add(connection);
      connection.start();
    });
    // Closing the server closes node:http's idle connections first; these are closed with them.
    const closeIdleConnections = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {
      closeIdleConnections();
      for (const connection of this.connections) if (connection.idle()) connection.end();
    };
  }

  draining(): boolean {
    return this.shutdown.isDraining();
  }

  keepAliveMs(): number {
    return this.server?.keepAliveTimeout ?? 5000;
  }

  handOver(socket: Socket, bytes: Buffer | undefined): void {
    this.metrics.pollConnections.inc({ outcome: 'handed_over' });
    for (const listener of this.toNode) listener.call(this.server, socket);
    if (bytes) socket.emit('data', bytes);
  }

  forget(connection: PollConnection): void {
    this.connections.delete(connection);
  }
}

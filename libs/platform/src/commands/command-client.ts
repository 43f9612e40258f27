import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { CommandDef, CommandReply } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import { ErrorCode, JSONCodec, connect, headers, type MsgHdrs, type NatsConnection, type NatsError } from 'nats';
import { APP_CONFIG, natsServers, type AppConfig } from '../config';
import { MetricsService } from '../metrics';
import { SpanKind, inSpan, injectNats, tracing } from '../tracing';
import { callTime, type CommandTime } from './command-deadline';
import { ReplyInbox } from './reply-inbox';

/** What Nest's NATS server transport reads (`{ pattern, data, id }`) and answers. */
interface RequestPacket {
  pattern: string;
  data: unknown;
  id: string;
  /** When this caller stops waiting (epoch ms), less a margin: the server starts nothing later (see command-deadline.ts). */
  deadline: number;
  /** When this caller stops waiting (epoch ms): the server commits nothing it could not answer by then. */
  expires: number;
}
interface ReplyPacket<R> {
  id?: string;
  response?: CommandReply<R>;
  err?: unknown;
}

const codec = JSONCodec();

/** How a command call is timed: its own timeout, and the time of the caller it is made for. */
export interface CallOptions {
  timeoutMs?: number;
  within?: CommandTime;
}

/**
 * Calls another service's command over NATS request/reply. The request goes through the
 * connection's one shared reply subscription (ReplyInbox), not a subscription per call as
 * Nest's client makes: a call is one message each way. Every call
 * has a timeout, and a subject nobody serves fails at once (NATS answers "no responders").
 */
@Injectable()
export class CommandClient implements OnApplicationShutdown {
  private connection?: Promise<{ nats: NatsConnection; inbox: ReplyInbox }>;
  private current?: NatsConnection;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  /**
   * Times the call (command_call_duration_seconds) and, with tracing on, makes it a CLIENT span.
   * `timeoutMs`: how long this call waits (NATS_REQUEST_TIMEOUT_MS unless given); `within`: the
   * time of the caller it is made for (see callerTime), when not the command in scope.
   */
  async call<P, R>(def: CommandDef<P, R>, payload: P, { timeoutMs = this.config.NATS_REQUEST_TIMEOUT_MS, within }: CallOptions = {}): Promise<R> {
    const stop = this.metrics?.commandCallDuration.startTimer({ subject: def.subject });
    try {
      const result = tracing.enabled
        ? await inSpan(`command ${def.subject}`, { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': def.subject } }, () => {
            const carrier = headers();
            injectNats(carrier);
            return this.request(def, payload, timeoutMs, within, carrier);
          })
        : await this.request(def, payload, timeoutMs, within);
      stop?.({ outcome: 'ok' });
      return result;
    } catch (error) {
      stop?.({ outcome: error instanceof ZulipError ? error.code : 'error' });
      throw error;
    }
  }

  private async request<P, R>(def: CommandDef<P, R>, payload: P, timeoutMs: number, within?: CommandTime, carrier?: MsgHdrs): Promise<R> {
    const nats = await this.connected();
    const now = Date.now();
    const { deadline, expires } = callTime(timeoutMs, now, within);
    if (expires <= now) throw new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { service: def.service, 'retry-after': 1 });
    const packet: RequestPacket = { pattern: def.subject, data: payload, id: randomUUID(), deadline, expires };
    let answer: ReplyPacket<R>;
    try {
      const message = await nats.inbox.request(def.subject, codec.encode(packet), expires - now, carrier);
      answer = codec.decode(message.data) as ReplyPacket<R>;
    } catch (error) {
      const code = (error as NatsError).code;
      if (code === ErrorCode.Timeout || code === ErrorCode.NoResponders || code === ErrorCode.ConnectionClosed) {
        throw new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { service: def.service, 'retry-after': 1 });
      }
      throw error;
    }
    if (answer.err !== undefined && answer.err !== null) throw new Error(`command ${def.subject} failed in transport: ${String(answer.err)}`);
    const reply = answer.response;
    if (!reply) throw new Error(`command ${def.subject} answered without a reply`);
    if (!reply.ok) throw ZulipError.fromBody(reply.error);
    return reply.data;
  }

  /** Connects once; a failed first attempt is forgotten so the next call tries again. */
  async connect(): Promise<NatsConnection> {
    return (await this.connected()).nats;
  }

  private connected(): Promise<{ nats: NatsConnection; inbox: ReplyInbox }> {
    this.connection ??= connect({
      servers: natsServers(this.config),
      name: 'command-client',
      // A service outlives any NATS outage: it keeps reconnecting rather than giving up.
      maxReconnectAttempts: -1,
      // No stack captured per request (nats.js does by default): a measurable cost on every send.
      noAsyncTraces: true,
    }).then(
      (nats) => ({ nats: (this.current = nats), inbox: new ReplyInbox(nats) }),
      (error: unknown) => {
        this.connection = undefined;
        throw error;
      },
    );
    return this.connection;
  }

  isConnected(): boolean {
    return this.current?.isClosed() === false;
  }

  async onApplicationShutdown(): Promise<void> {
    const connected = await this.connection?.catch(() => undefined);
    await connected?.nats.drain().catch(() => undefined);
  }
}

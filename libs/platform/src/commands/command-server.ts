import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { CommandDef, CommandReply, ServiceName } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import { JSONCodec, connect, type Msg, type NatsConnection, type Subscription } from 'nats';
import type { Logger } from 'pino';
import { APP_CONFIG, natsServers, type AppConfig } from '../config';
import { LOGGER } from '../logger';
import { MetricsService } from '../metrics';
import { SERVICE_NAME } from '../service-name';
import { SpanKind, extractNats, failSpan, inSpan, tracing } from '../tracing';
import { inputOutOfRange, isDependencyUnavailable } from '../dependency-errors';
import { COMMAND_DEF } from './command-handler.decorator';
import { CommandConnection } from './command-connection';
import { overloaded, withDeadline } from './command-deadline';

/** What a caller sends (Nest's NATS packet shape, which CommandClient and Nest's client both write). */
interface RequestPacket {
  id?: string;
  data?: unknown;
  /** The last moment to start the command (epoch ms); absent from callers that do not say. */
  deadline?: number;
  /** When the caller stops waiting (epoch ms); absent from older callers (then a margin after the deadline). */
  expires?: number;
}

type Handler = (payload: unknown) => unknown;

const codec = JSONCodec();

/**
 * Serves this process's commands on NATS: one queue-group subscription per `@CommandHandler`
 * subject (the group is the service's name, so replicas share the work), each message handed
 * straight to its handler. This is the one place a command's payload is checked and its outcome
 * turned into a reply: `{ ok: true, data }`, a ZulipError as `{ ok: false, error }`, anything
 * else logged with the request id and answered as an internal error without details.
 *
 * It replaces Nest's NATS transport, whose per-message pipeline (pattern routing, context
 * creation, interceptors, observables) cost more CPU than most commands' own work. On shutdown
 * it stops taking messages, waits for the handlers still running and flushes their replies.
 */
@Injectable()
export class CommandServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private connection?: NatsConnection;
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly metrics: MetricsService,
    private readonly alongside: CommandConnection,
    @Inject(SERVICE_NAME) private readonly service: ServiceName,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const handlers = this.handlers();
    this.connection = await connect({
      servers: natsServers(this.config),
      name: this.service,
      maxReconnectAttempts: -1,
      // A stack captured per request is pure cost here: replies are matched by subject.
      noAsyncTraces: true,
    });
    // Subscriptions that must precede any command (see CommandConnection) come first.
    this.alongside.attach(this.connection);
    for (const { def, handler } of handlers) {
      const subscription = this.connection.subscribe(def.subject, {
        queue: this.service,
        callback: (error, message) => {
          if (error) return;
          const done = this.serve(def, handler, message).finally(() => this.inFlight.delete(done));
          this.inFlight.add(done);
        },
      });
      this.subscriptions.push(subscription);
    }
    // The server knows the subscriptions once this returns: a service is never ready before
    // it can be reached (a request sent earlier would meet "no responders").
    await this.connection.flush();
  }

  isConnected(): boolean {
    return this.connection?.isClosed() === false;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.connection || this.connection.isClosed()) return;
    await Promise.all(this.subscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    await Promise.all(this.inFlight);
    await this.connection.drain().catch(() => undefined);
  }

  /** Every method marked with `@CommandHandler`, bound to its instance. */
  private handlers(): { def: CommandDef<unknown, unknown>; handler: Handler }[] {
    const found: { def: CommandDef<unknown, unknown>; handler: Handler }[] = [];
    for (const wrapper of [...this.discovery.getControllers(), ...this.discovery.getProviders()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[name];
        if (typeof method !== 'function') continue;
        const def = Reflect.getMetadata(COMMAND_DEF, method) as CommandDef<unknown, unknown> | undefined;
        if (def) found.push({ def, handler: (method as Handler).bind(instance) });
      }
    }
    return found;
  }

  private async serve(def: CommandDef<unknown, unknown>, handler: Handler, message: Msg): Promise<void> {
    let packet: RequestPacket;
    try {
      packet = codec.decode(message.data) as RequestPacket;
    } catch {
      packet = {};
    }
    const deadline = typeof packet.deadline === 'number' ? packet.deadline : undefined;
    const expires = typeof packet.expires === 'number' ? packet.expires : undefined;
    const late = deadline !== undefined && Date.now() >= deadline;
    if (late) {
      this.metrics.commandErrors.inc({ subject: def.subject, code: 'DEADLINE_PASSED' });
      // The caller has stopped waiting: the work would be wasted, and its outcome unknown to them.
      if (expires === undefined || Date.now() >= expires) return;
    }
    const response =
      // Too late to start, or as much in hand as the process takes: "not done" while the caller still listens.
      late || this.inFlight.size >= this.config.COMMAND_MAX_IN_FLIGHT
        ? this.fail(def, overloaded(), () => undefined)
        : await withDeadline(
            deadline ?? Number.POSITIVE_INFINITY,
            () => (tracing.enabled ? this.traced(def, handler, packet.data, message) : this.run(def, handler, packet.data)),
            expires,
          );
    if (!message.reply) return;
    try {
      message.respond(codec.encode({ id: packet.id, response, isDisposed: true }));
    } catch (error) {
      this.logger.warn({ err: error, subject: def.subject }, 'command reply not sent');
    }
  }

  /** With tracing on: the command as a SERVER span continuing the caller's trace (NATS headers). */
  private traced(def: CommandDef<unknown, unknown>, handler: Handler, payload: unknown, message: Msg): Promise<CommandReply<unknown>> {
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': def.subject };
    return inSpan(`command ${def.subject}`, { kind: SpanKind.SERVER, parent: extractNats(message.headers), attributes }, async (span) => {
      const reply = await this.run(def, handler, payload);
      if (!reply.ok) {
        span.setAttribute('zulip.error.code', reply.error.code);
        if (reply.error.code === 'INTERNAL_SERVER_ERROR') failSpan(span, new Error(reply.error.msg));
      }
      return reply;
    });
  }

  private async run(def: CommandDef<unknown, unknown>, handler: Handler, payload: unknown): Promise<CommandReply<unknown>> {
    const stopTimer = this.metrics.commandDuration.startTimer({ subject: def.subject });
    const requestId = (payload as { requestId?: string } | null)?.requestId;
    try {
      const checked = def.payload.safeParse(payload);
      if (!checked.success) {
        this.logger.warn({ subject: def.subject, requestId, issues: checked.error.issues }, 'malformed command payload');
        return this.fail(def, new ZulipError('BAD_REQUEST', 'Malformed request'), stopTimer);
      }
      const data = await handler(payload);
      stopTimer({ outcome: 'ok' });
      return { ok: true, data: data ?? {} };
    } catch (error) {
      if (error instanceof ZulipError) return this.fail(def, error, stopTimer);
      if (isDependencyUnavailable(error)) {
        this.logger.warn({ err: error, subject: def.subject, requestId }, 'command failed: a dependency is unavailable');
        return this.fail(def, new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable'), stopTimer);
      }
      const refused = inputOutOfRange(error);
      if (refused) {
        this.logger.warn({ err: error, subject: def.subject, requestId }, 'command refused: the database could not hold a value');
        return this.fail(def, new ZulipError('BAD_REQUEST', refused), stopTimer);
      }
      this.logger.error({ err: error, subject: def.subject, requestId }, 'command failed unexpectedly');
      return this.fail(def, new ZulipError('INTERNAL_SERVER_ERROR', 'Internal server error'), stopTimer);
    }
  }

  private fail(def: CommandDef<unknown, unknown>, error: ZulipError, stopTimer: (labels: { outcome: string }) => void): CommandReply<never> {
    stopTimer({ outcome: error.code });
    this.metrics.commandErrors.inc({ subject: def.subject, code: error.code });
    return { ok: false, error: error.toBody() };
  }
}

import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { CommandDef, CommandReply } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { from, type Observable } from 'rxjs';
import { LOGGER } from '../logger';
import { MetricsService } from '../metrics';
import { COMMAND_DEF } from './command-handler.decorator';

/**
 * The one place a command's payload is checked and its outcome turned into a reply:
 * `{ ok: true, data }`, a ZulipError as `{ ok: false, error }`, anything else logged
 * with the request id and answered as an internal error without details.
 */
@Injectable()
export class CommandInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const def = this.reflector.get<CommandDef<unknown, unknown>>(COMMAND_DEF, context.getHandler());
    const payload = context.switchToRpc().getData();
    return from(this.run(def, payload, next));
  }

  private async run(def: CommandDef<unknown, unknown>, payload: unknown, next: CallHandler): Promise<CommandReply<unknown>> {
    const stopTimer = this.metrics.commandDuration.startTimer({ subject: def.subject });
    const requestId = (payload as { requestId?: string } | null)?.requestId;
    try {
      const checked = def.payload.safeParse(payload);
      if (!checked.success) {
        this.logger.warn({ subject: def.subject, requestId, issues: checked.error.issues }, 'malformed command payload');
        return this.fail(new ZulipError('BAD_REQUEST', 'Malformed request'), stopTimer);
      }
      const data = await lastValue(next.handle());
      stopTimer({ outcome: 'ok' });
      return { ok: true, data: data ?? {} };
    } catch (error) {
      if (error instanceof ZulipError) return this.fail(error, stopTimer);
      this.logger.error({ err: error, subject: def.subject, requestId }, 'command failed unexpectedly');
      return this.fail(new ZulipError('INTERNAL_SERVER_ERROR', 'Internal server error'), stopTimer);
    }
  }

  private fail(error: ZulipError, stopTimer: (labels: { outcome: string }) => void): CommandReply<never> {
    stopTimer({ outcome: error.code });
    return { ok: false, error: error.toBody() };
  }
}

function lastValue(source: Observable<unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let value: unknown;
    source.subscribe({ next: (v) => (value = v), error: reject, complete: () => resolve(value) });
  });
}

import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { LOGGER, afterRequestBody, isDependencyUnavailable } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { isSessionRequest } from './json-routes';
import type { ApiRequest } from './request-context';

/**
 * The one place any failure becomes Zulip's error envelope `{ result, msg, code, ...extra }`.
 * Faults nobody expected are logged with the request id and answered without internals.
 */
@Catch()
export class ZulipExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    sendError(host.switchToHttp().getRequest(), host.switchToHttp().getResponse(), exception, this.logger);
  }
}

/** Writes any failure as the error envelope, with the headers some errors carry. */
export function sendError(req: IncomingMessage & Partial<Pick<ApiRequest, 'ctx'>>, res: ServerResponse, exception: unknown, logger: Logger): void {
  const error = toZulipError(exception, req, logger);
  if (error.status === 401 && error.code === 'UNAUTHORIZED') {
    // Under /json, Zulip's `Session` challenge: a Basic one would make the browser prompt for a password.
    res.setHeader('WWW-Authenticate', isSessionRequest(req) ? 'Session realm="zulip"' : 'Basic realm="zulip"');
  }
  const retryAfter = error.extra['retry-after'];
  if (error.code === 'RATE_LIMIT_HIT' && typeof retryAfter === 'number') res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
  // Every 503 says when to try again: a refusal, a timeout, a dependency restarting.
  if (error.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', String(typeof retryAfter === 'number' ? Math.ceil(retryAfter) : 1));
  const body = JSON.stringify({ result: 'error', msg: error.message, code: error.code, ...error.extra });
  afterRequestBody(req, () => {
    if (res.headersSent || res.writableEnded) return;
    res.writeHead(error.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
}

function toZulipError(exception: unknown, req: IncomingMessage & Partial<Pick<ApiRequest, 'ctx'>>, logger: Logger): ZulipError {
    if (exception instanceof ZulipError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new ZulipError('NOT_FOUND', 'Not Found');
      if (status === 405) return new ZulipError('BAD_REQUEST', 'Method Not Allowed', {}, 405);
      if (status < 500) return new ZulipError('BAD_REQUEST', exception.message, {}, status);
    }
    const bodyError = bodyParserError(exception);
    if (bodyError) return bodyError;
    // Redis or NATS unreachable from the gateway itself (a restart): retryable, not our fault.
    if (isDependencyUnavailable(exception)) return new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable');

    logger.error({ err: exception, requestId: req.ctx?.requestId, path: req.url }, 'unexpected fault');
    return new ZulipError('INTERNAL_SERVER_ERROR', 'Internal server error', {
      ...(req.ctx?.requestId ? { request_id: req.ctx.requestId } : {}),
    });
}

/**
 * body-parser and multer failures: malformed, oversized or unreadable bodies. body-parser marks
 * its client errors with a 4xx `status` and `expose` (http-errors), a bad compressed body
 * included (zlib's error, given status 400); multer and busboy name theirs by code or message.
 */
function bodyParserError(exception: unknown): ZulipError | undefined {
  if (!exception || typeof exception !== 'object') return undefined;
  const { type, status, code, expose } = exception as { type?: string; status?: number; code?: string; expose?: boolean };
  if (type === 'entity.too.large' || code === 'LIMIT_FIELD_VALUE' || code === 'LIMIT_FILE_SIZE' || code === 'LIMIT_BODY_SIZE') {
    return new ZulipError('BAD_REQUEST', 'Request body too large', {}, 413);
  }
  if (type === 'encoding.unsupported') return new ZulipError('BAD_REQUEST', 'Unsupported content encoding', {}, 415);
  if ((typeof type === 'string' || expose === true) && typeof status === 'number' && status >= 400 && status < 500) {
    return new ZulipError('BAD_REQUEST', 'Malformed request body', {}, status);
  }
  if (typeof code === 'string' && code.startsWith('LIMIT_')) {
    return new ZulipError('BAD_REQUEST', 'Malformed request body');
  }
  if ((exception as Error).message === 'Unexpected end of form' || (exception as Error).message?.startsWith('Multipart')) {
    return new ZulipError('BAD_REQUEST', 'Malformed request body');
  }
  return undefined;
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { callerTime } from '@teamchat/platform';
import type { NextFunction, Request, Response } from 'express';
import type { ApiRequest } from './request-context';
import { traceRequest } from './request-trace';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * First thing on every request, before body parsing and routing, so that even a 404 or a 413
 * carries an id (the caller's `X-Request-Id` when well formed, else a new one), and its time
 * (`NATS_REQUEST_TIMEOUT_MS` from now): every command the request calls shares it (`ctx.time`,
 * see callerTime), so its answer never waits longer.
 */
export const requestIdWithin =
  (timeoutMs: number) =>
  (req: Request, res: Response, next: NextFunction): void => {
    assignRequestId(req, res);
    (req as ApiRequest).ctx.time = callerTime(timeoutMs);
    next();
  };

/**
 * Gives a request its context and id (echoed as `X-Request-Id`). With tracing on, the id is the
 * request's trace id (a caller's `X-Request-Id` is then ignored: the trace id is what finds it).
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('X-Request-Id', identifyRequest(req, res));
}

/**
 * assignRequestId without the header, for GET /events, which writes its answer's headers in
 * one call (a header set beforehand turns every header of the answer into a `setHeader`) and
 * so must send `X-Request-Id` itself: see PollEventsRoute.
 */
export function identifyRequest(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = traceRequest(req, res) ?? (typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID());
  (req as IncomingMessage & Pick<ApiRequest, 'ctx'>).ctx = { requestId: id, user: null, ignored: [] };
  return id;
}

import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import type { ApiRequest } from './request-context';

const RAW_RESPONSE = Symbol('RAW_RESPONSE');

/** A route under /api/v1 whose answer is a document of its own, not a Zulip envelope. */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/** Wraps a handler's result as `{ result: "success", msg: "", ...data }`, with ignored parameters. */
@Injectable()
export class SuccessEnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const raw = this.reflector.get<boolean>(RAW_RESPONSE, context.getHandler()) ?? false;
    return next.handle().pipe(
      map((data) => {
        if (raw || !req.path.startsWith('/api/')) return data;
        res.status(200); // Zulip answers 200 to every successful method, POST included
        return successBody(data as object, req.ctx?.ignored ?? []);
      }),
    );
  }
}

/** `{ result: "success", msg: "", ...data }`, naming the parameters the endpoint did not use. */
export function successBody(data: object, ignored: string[]): Record<string, unknown> {
  return { result: 'success', msg: '', ...data, ...(ignored.length ? { ignored_parameters_unsupported: ignored } : {}) };
}

/**
 * Writes a success envelope straight to the response. Express's `res.json` (type lookup,
 * freshness check, charset handling) cost the two busiest routes, GET /events and the command
 * routes, more CPU than their own work; headers already set (request id, rate limit) are kept.
 */
export function sendSuccess(res: ServerResponse, data: object, ignored: string[]): void {
  sendSuccessJson(res, JSON.stringify(successBody(data, ignored)));
}

/**
 * Writes a success envelope already serialized. With `requestId` (a response with no header set
 * yet: see identifyRequest), its `X-Request-Id` goes with the others in one call.
 */
export function sendSuccessJson(res: ServerResponse, body: string, requestId?: string): void {
  const length = Buffer.byteLength(body);
  if (requestId === undefined) res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': length });
  else res.writeHead(200, ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(length), 'X-Request-Id', requestId]);
  res.end(body);
}

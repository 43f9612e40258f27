import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import type { ApiRequest } from './request-context';

/** Wraps a handler's result as `{ result: "success", msg: "", ...data }`, with ignored parameters. */
@Injectable()
export class SuccessEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((data) => {
        if (!req.path.startsWith('/api/')) return data;
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

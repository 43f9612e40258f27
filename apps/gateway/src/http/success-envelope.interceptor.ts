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
        const ignored = req.ctx?.ignored ?? [];
        return {
          result: 'success',
          msg: '',
          ...(data as object),
          ...(ignored.length ? { ignored_parameters_unsupported: ignored } : {}),
        };
      }),
    );
  }
}

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { MetricsController } from '@teamchat/platform';
import { AUTH_MODE, type AuthMode } from '../http/auth-mode.decorator';
import type { ApiRequest } from '../http/request-context';
import { AdmitCaller } from './admit-caller';

/**
 * Runs before every Nest route (the endpoints the gateway serves itself): admits the request as
 * the route's AuthMode asks (AdmitCaller, which CommandRoutes uses too), whatever its path. A
 * route that declares none is admitted as `user`, but for the shared metrics scrape (no caller,
 * like the health probes, which declare `none`). The request id is set earlier, by the
 * requestId middleware.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly admission: AdmitCaller,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const mode =
      this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, [context.getHandler(), context.getClass()]) ??
      (context.getClass() === MetricsController ? 'none' : 'user');
    await this.admission.admit(req, res, mode);
    return true;
  }
}

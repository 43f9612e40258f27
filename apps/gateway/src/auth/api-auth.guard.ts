import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AUTH_MODE, type AuthMode } from '../http/auth-mode.decorator';
import type { ApiRequest } from '../http/request-context';
import { AdmitCaller } from './admit-caller';

/**
 * Runs before every Nest route (the endpoints the gateway serves itself): admits the request as
 * the route's AuthMode asks (AdmitCaller, which CommandRoutes uses too). The request id is set
 * earlier, by the requestId middleware.
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
      this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, [context.getHandler(), context.getClass()]) ?? 'user';
    // Outside /api/v1 (health, metrics) are probes and scrapers: no organization or caller.
    if (req.path.startsWith('/api/')) await this.admission.admit(req, res, mode);
    return true;
  }
}

import type { IncomingMessage } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AUTH_MODE, type AuthMode } from '../http/auth-mode.decorator';
import type { ApiRequest } from '../http/request-context';
import { notLoggedIn, parseBasicAuth } from './basic-credentials';
import { ApiRateLimit } from './api-rate-limit';
import { CredentialCache } from './credential-cache';

/**
 * Sets the request's organization and caller as `mode` asks: with credentials, the user they
 * name (Zulip's 401s otherwise); without, the organization the host selects, refusing routes
 * that need a user.
 */
export async function identifyCaller(
  credentials: CredentialCache,
  req: IncomingMessage & Pick<ApiRequest, 'ctx'>,
  mode: Exclude<AuthMode, 'none'>,
): Promise<void> {
  const host = req.headers.host ?? '';
  const authorization = req.headers.authorization;
  if (authorization && mode !== 'realm') {
    const { email, apiKey } = parseBasicAuth(authorization);
    const { realm, user } = await credentials.authenticate(host, email, apiKey);
    req.ctx.realm = realm;
    req.ctx.user = user;
  } else {
    const realm = await credentials.realm(host);
    if (mode === 'user' || (mode === 'spectator' && !realm.spectatorAccess)) throw notLoggedIn();
    req.ctx.realm = realm;
  }
}

/**
 * Runs before every Nest route (the endpoints the gateway serves itself): finds the request's
 * organization and caller as the route's AuthMode asks, and applies the rate limit. (The
 * request id is set earlier, by the requestId middleware; command endpoints do the same in
 * CommandRoutes.)
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialCache,
    private readonly rateLimit: ApiRateLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const mode =
      this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, [context.getHandler(), context.getClass()]) ?? 'user';
    // Outside /api/v1 (health, metrics) are probes and scrapers: no organization or caller.
    if (mode === 'none' || !req.path.startsWith('/api/')) return true;

    await identifyCaller(this.credentials, req, mode);
    await this.rateLimit.apply(req, res);
    return true;
  }
}

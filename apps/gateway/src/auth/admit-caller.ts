import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { AuthMode } from '@teamchat/contracts';
import type { Response } from 'express';
import type { ApiRequest } from '../http/request-context';
import { ApiRateLimit } from './api-rate-limit';
import { notLoggedIn, parseBasicAuth } from './basic-credentials';
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
 * The admission of an API request, for the Nest routes' guard and the command routes alike:
 * the organization and caller as the endpoint's auth mode asks, then the rate limit. An
 * endpoint that needs nobody (`none`) looks up neither.
 */
@Injectable()
export class AdmitCaller {
  constructor(
    private readonly credentials: CredentialCache,
    private readonly rateLimit: ApiRateLimit,
  ) {}

  async admit(req: ApiRequest, res: Response, mode: AuthMode): Promise<void> {
    if (mode === 'none') return;
    await identifyCaller(this.credentials, req, mode);
    await this.rateLimit.apply(req, res);
  }

  /**
   * The caller named by an API key alone, as Zulip admits the `api_key` query parameter of file
   * URLs (mobile apps cannot set headers on an image); Zulip does not rate limit these.
   */
  async admitByApiKey(req: ApiRequest, apiKey: string): Promise<void> {
    const { realm, user } = await this.credentials.authenticate(req.headers.host ?? '', null, apiKey);
    req.ctx.realm = realm;
    req.ctx.user = user;
  }
}

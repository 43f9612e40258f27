import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { AuthMode } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import type { Response } from 'express';
import { isSessionRequest } from '../http/json-routes';
import type { ApiRequest } from '../http/request-context';
import { ApiRateLimit } from './api-rate-limit';
import { notLoggedIn } from './basic-credentials';
import { CredentialCache, NOTHING_HELD, type Identity } from './credential-cache';
import { Sessions } from './sessions';

type Identified = IncomingMessage & Pick<ApiRequest, 'ctx'>;

/** Methods that change nothing, which need no CSRF token (Django's safe methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * The admission of an API request, for the Nest routes' guard, the command routes and the events
 * poll alike: the organization and caller as the endpoint's auth mode asks, then the rate limit.
 * An endpoint that needs nobody (`none`) looks up neither. A request under /api/v1 is admitted by
 * HTTP Basic credentials only; one under /json (see json-routes) by its session only.
 */
@Injectable()
export class AdmitCaller {
  constructor(
    private readonly credentials: CredentialCache,
    private readonly sessions: Sessions,
    private readonly rateLimit: ApiRateLimit,
  ) {}

  async admit(req: ApiRequest, res: Response, mode: AuthMode): Promise<void> {
    if (mode === 'none') return;
    await this.identify(req, mode);
    await this.rateLimit.apply(req, res);
  }

  /**
   * Sets the request's organization and caller as `mode` asks: with credentials, the user they
   * name (Zulip's 401s otherwise); without, the organization the host selects, refusing routes
   * that need a user. Answers undefined when it is done at once; a refusal may then be thrown
   * rather than rejected (every caller awaits it in an async function, where both are the same).
   */
  identify(req: Identified, mode: Exclude<AuthMode, 'none'>): Promise<void> | undefined {
    if (isSessionRequest(req)) return this.identifyBySession(req, mode);
    const host = req.headers.host ?? '';
    const authorization = req.headers.authorization;
    if (!authorization || mode === 'realm') return this.anonymous(req, mode);
    // A header already known answers at once (undefined: nothing to wait for), as every poll's does.
    const known = this.credentials.knownBasic(host, authorization);
    if (known) return admitAs(req, known);
    return this.credentials.authenticateBasic(host, authorization, req.ctx.time).then((identity) => admitAs(req, identity));
  }

  /**
   * Keeps the caller's credential checked ahead while its request waits (CredentialCache.hold),
   * until the answer given back is called. A session's request is not held: a browser's
   * session comes back at its next message with one check, not a thousand.
   */
  hold(req: Identified): () => void {
    const authorization = req.headers.authorization;
    if (!authorization || isSessionRequest(req)) return NOTHING_HELD;
    return this.credentials.hold(req.headers.host ?? '', authorization);
  }

  /**
   * The caller named by an API key alone, as Zulip admits the `api_key` query parameter of file
   * URLs (mobile apps cannot set headers on an image); Zulip does not rate limit these. Never
   * under /json, where only the session counts.
   */
  async admitByApiKey(req: ApiRequest, apiKey: string): Promise<void> {
    if (isSessionRequest(req)) throw notLoggedIn();
    const { realm, user, sendOnly } = await this.credentials.authenticate(req.headers.host ?? '', null, apiKey, req.ctx.time);
    if (sendOnly) refuseIncomingWebhookBotsBut(req);
    req.ctx.realm = realm;
    req.ctx.user = user;
  }

  /**
   * A /json request: the session cookie names the caller (an Authorization header is ignored), and
   * a request that may change something must carry the session's CSRF token. Without a session it
   * is treated as anonymous, but an unsafe request needs one whatever the endpoint. The session's
   * API key is checked as any key is, so a deactivated user or a rotated key ends it.
   */
  private async identifyBySession(req: Identified, mode: Exclude<AuthMode, 'none'>): Promise<void> {
    const unsafe = !SAFE_METHODS.has(req.method ?? 'GET');
    const session = await this.sessions.read(req);
    if (!session) {
      if (unsafe) throw notLoggedIn();
      return this.anonymous(req, mode);
    }
    if (unsafe) this.sessions.checkCsrf(req, session);
    let identity;
    try {
      identity = await this.credentials.authenticate(req.headers.host ?? '', null, session.apiKey, req.ctx.time);
    } catch (error) {
      if (!(error instanceof ZulipError) || error.status !== 401) throw error;
      // Deactivated, or the key rotated, or another organization's host: a session ends with its key.
      if (error.message !== 'Account is not associated with this subdomain') await this.sessions.end(session);
      throw notLoggedIn();
    }
    if (identity.user.id !== session.userId || identity.realm.id !== session.realmId) throw notLoggedIn();
    req.ctx.realm = identity.realm;
    req.ctx.session = session.digest;
    if (mode !== 'realm') req.ctx.user = identity.user;
  }

  private async anonymous(req: Identified, mode: Exclude<AuthMode, 'none'>): Promise<void> {
    const realm = await this.credentials.realm(req.headers.host ?? '', req.ctx.time);
    if (mode === 'user' || (mode === 'spectator' && !realm.spectatorAccess)) throw notLoggedIn();
    req.ctx.realm = realm;
  }
}

/**
 * Incoming webhook bots may only send messages (Zulip's validate_api_key, whose only endpoint
 * with `allow_incoming_webhooks` is POST /messages): any other request is 401.
 */
function refuseIncomingWebhookBotsBut(req: IncomingMessage): void {
  const path = (req.url ?? '').split('?', 1)[0];
  if (req.method === 'POST' && (path === '/api/v1/messages' || path === '/json/messages')) return;
  throw new ZulipError('UNAUTHORIZED', 'This API is not available to incoming webhook bots.');
}

/** The request's organization and caller, as the credentials named them. */
function admitAs(req: Identified, { realm, user, sendOnly }: Identity): undefined {
  if (sendOnly) refuseIncomingWebhookBotsBut(req);
  req.ctx.realm = realm;
  req.ctx.user = user;
  return undefined;
}

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { TUS_PATH, Uploads } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, afterRequestBody, type AppConfig } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import { Router, type Response } from 'express';
import { EXACT_ROUTING } from './exact-routing';
import { JSON_PREFIX, admitBySession, isSessionRequest } from './json-routes';
import { SESSION_COOKIE, cookiesOf } from '../auth/sessions';
import type { Logger } from 'pino';
import { AdmitCaller } from '../auth/admit-caller';
import type { ApiRequest } from './request-context';
import { mountedElsewhere } from './route.decorator';
import { sendError } from './zulip-exception.filter';

/** The header that names the admitted caller to the uploads service (apps/uploads/src/http/caller.ts). */
const { CALLER_HEADER } = Uploads;
/** POST /realm/emoji/{emoji_name}, POST/DELETE /users/me/avatar, /realm/icon and /realm/logo: served by the uploads service. */
const CUSTOM_EMOJI_UPLOAD = /^\/api\/v1\/realm\/emoji\/[^/]+$/;
const AVATAR = '/api/v1/users/me/avatar';
/** POST/DELETE /realm/icon and /realm/logo: the organization's images, also served by the uploads service. */
const REALM_IMAGES = ['/api/v1/realm/icon', '/api/v1/realm/logo'];
/** Hop-by-hop headers, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade']);

/**
 * The routes whose bodies are files: POST /api/v1/user_uploads, the files under /user_uploads
 * (and /api/v1/user_uploads, which answers a temporary URL), and the tus endpoint. Mounted before
 * body parsing, so the request stream is untouched. The gateway admits the caller as for any
 * endpoint (credentials, organization, rate limit) and then streams the request to the uploads
 * service's HTTP listener (UPLOADS_URL) with the caller in a header, and the answer back, with
 * nothing held in memory. A temporary URL needs no credentials; tus answers a missing or wrong
 * one with its own 401 `{"message": "Unauthenticated upload"}` (Zulip's tusd hook).
 */
@Injectable()
export class UploadsProxy {
  readonly router = Router(EXACT_ROUTING);
  private readonly target: URL;

  constructor(
    private readonly admission: AdmitCaller,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.target = new URL(config.UPLOADS_URL);
    mountedElsewhere(Uploads.uploadFile);
    mountedElsewhere(Uploads.getFileTemporaryUrl);
    mountedElsewhere(Uploads.uploadCustomEmoji);
    mountedElsewhere(Uploads.setAvatar);
    mountedElsewhere(Uploads.deleteAvatar);
    mountedElsewhere(Uploads.uploadRealmIcon);
    mountedElsewhere(Uploads.deleteRealmIcon);
    mountedElsewhere(Uploads.uploadRealmLogo);
    mountedElsewhere(Uploads.deleteRealmLogo);
    this.router.post('/api/v1/user_uploads', (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.get(/^\/user_uploads\/temporary\//, (req, res) => void this.forward(req as ApiRequest, res, 'none'));
    this.router.get(/^\/(api\/v1\/)?user_uploads\//, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.all([TUS_PATH, `${TUS_PATH}/*rest`], (req, res) => void this.forward(req as ApiRequest, res, 'tus'));
    // Images: a custom emoji's upload and the caller's avatar carry a file; the images are public, as in Zulip.
    this.router.post(CUSTOM_EMOJI_UPLOAD, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.post(AVATAR, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.delete(AVATAR, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.post(REALM_IMAGES, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.delete(REALM_IMAGES, (req, res) => void this.forward(req as ApiRequest, res, 'user'));
    this.router.get(new RegExp(`^${Uploads.USER_AVATARS_PATH}/`), (req, res) => void this.forward(req as ApiRequest, res, 'none'));
  }

  /** Whether a request is for one of these routes (compared exactly, as every route is; GET and DELETE /realm/emoji… are commands). */
  claims(url: string, method = 'GET'): boolean {
    if (url.startsWith('/user_uploads/') || url.startsWith('/api/v1/user_uploads') || url.startsWith(TUS_PATH)) return true;
    if (url.startsWith(`${Uploads.USER_AVATARS_PATH}/`)) return true;
    const path = url.split('?', 1)[0];
    if (path === AVATAR || REALM_IMAGES.includes(path)) return method === 'POST' || method === 'DELETE';
    return method === 'POST' && CUSTOM_EMOJI_UPLOAD.test(path);
  }

  private async forward(req: ApiRequest, res: Response, auth: 'user' | 'none' | 'tus'): Promise<void> {
    try {
      const queryKey = req.method === 'GET' && !req.headers.authorization ? req.query.api_key : undefined;
      // A browser following a file link (an image in a message) sends its session cookie and
      // nothing else; as in Zulip, the session admits it. A GET changes nothing: no CSRF token.
      if (auth === 'user' && queryKey === undefined && browserFileRequest(req)) admitBySession(req);
      if (auth === 'user' && typeof queryKey === 'string') await this.admission.admitByApiKey(req, queryKey);
      else if (auth === 'user') await this.admission.admit(req, res, 'user');
      if (auth === 'tus' && req.method !== 'OPTIONS') {
        try {
          await this.admission.admit(req, res, 'user');
        } catch (error) {
          if (error instanceof ZulipError && error.code === 'RATE_LIMIT_HIT') throw error;
          afterRequestBody(req, () => void res.status(401).json({ message: 'Unauthenticated upload' }));
          return;
        }
      }
    } catch (error) {
      // sendError drains the unread body before answering.
      if (!res.writableEnded) sendError(req, res, error, this.logger);
      return;
    }
    this.pipe(req, res);
  }

  private pipe(req: ApiRequest, res: Response): void {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== CALLER_HEADER && name !== 'x-request-id') headers[name] = value;
    }
    headers['x-request-id'] = req.ctx.requestId;
    if (req.ctx.realm) {
      headers[CALLER_HEADER] = Uploads.encodeCaller({ realm: req.ctx.realm, user: req.ctx.user });
    }
    const upstream = httpRequest(
      { protocol: this.target.protocol, hostname: this.target.hostname, port: this.target.port, method: req.method, path: withoutApiKey(req.originalUrl), headers },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        }
        // A tus upload begun under /json goes on under /json: its Location (`/api/v1/tus/<id>`)
        // would take the browser to the prefix where its session cookie admits nothing.
        const location = out.location;
        if (isSessionRequest(req) && typeof location === 'string' && location.startsWith(`${TUS_PATH}/`)) {
          out.location = `${JSON_PREFIX}${location.slice('/api/v1/'.length)}`;
        }
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) return void res.destroy();
      this.logger.error({ err: error, requestId: req.ctx.requestId }, 'uploads service unreachable');
      sendError(req, res, new ZulipError('SERVICE_UNAVAILABLE', 'Service unavailable'), this.logger);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }
}

/** A GET of a file under /user_uploads/ with the session cookie and no Authorization header. */
const browserFileRequest = (req: ApiRequest) =>
  req.method === 'GET' && !req.headers.authorization && req.path.startsWith('/user_uploads/') && Boolean(cookiesOf(req)[SESSION_COOKIE]);

/** The URL without its `api_key` query parameter: the key goes no further than the gateway. */
function withoutApiKey(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const query = new URLSearchParams(url.slice(queryAt + 1));
  if (!query.has('api_key')) return url;
  query.delete('api_key');
  const rest = query.toString();
  return url.slice(0, queryAt) + (rest ? `?${rest}` : '');
}

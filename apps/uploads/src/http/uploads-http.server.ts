import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TUS_PATH, Uploads } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, afterRequestBody, type AppConfig } from '@teamchat/platform';
import { LIMITS, ZulipError } from '@teamchat/zulip';
import { UserAvatar } from '../avatars/user-avatar.use-case';
import { UploadCustomEmoji } from '../custom-emoji/upload-custom-emoji.use-case';
import { ServeRealmExport } from '../realm-export/serve-realm-export.use-case';
import { PublicImages } from '../images/public-images';
import { readImageForm, readRequestParams } from './image-form';
import { RealmImages } from '../realm-images/realm-images.use-case';
import type { Logger } from 'pino';
import { callerOf, sendJson, type Caller } from './caller';
import { answerFailure } from './request-errors';
import { ServeFileRoute, fileNotFound } from './serve-file.route';
import { TusUploads } from './tus-uploads';
import { UploadFileRoute } from './upload-file.route';

const notLoggedIn = () => new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');

/**
 * The uploads service's own HTTP listener (UPLOADS_HTTP_PORT) for the routes that carry a
 * file's bytes, which cannot travel as JSON commands over NATS. Only the gateway calls it: it
 * admits the caller (credentials, rate limit) and streams the request here with the caller in
 * a header (see caller.ts); this listener writes Zulip's envelopes itself. Whatever fails in a
 * request answers that request (answerFailure: 4xx for the client's faults, 500 only for ours)
 * and never the process: see serve.
 */
@Injectable()
export class UploadsHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly upload: UploadFileRoute,
    private readonly files: ServeFileRoute,
    private readonly tus: TusUploads,
    private readonly customEmoji: UploadCustomEmoji,
    private readonly avatars: UserAvatar,
    private readonly realmImages: RealmImages,
    private readonly images: PublicImages,
    private readonly realmExports: ServeRealmExport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.server = createServer((req, res) => this.serve(req, res));
    this.server.requestTimeout = 0; // large uploads take as long as they take; the gateway bounds idle sockets
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.UPLOADS_HTTP_PORT, '0.0.0.0', resolve);
    });
    this.logger.info({ port: this.config.UPLOADS_HTTP_PORT }, 'uploads HTTP listener ready');
  }

  /**
   * One request, guarded at the last resort: an 'error' event of its request or response with no
   * listener would end the process (the routes hear the request's own failures through their
   * streams; a failed response is a dead connection), and whatever the route throws or rejects
   * with, synchronously or not, is answered by answerFailure, which never throws.
   */
  private serve(req: IncomingMessage, res: ServerResponse): void {
    const requestId = String(req.headers['x-request-id'] ?? '');
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const fail = (error: unknown) =>
      afterRequestBody(req, () => answerFailure(res, error, requestId, (err) => this.logger.error({ err, requestId, path: req.url }, 'unexpected fault')));
    try {
      this.route(req, res).catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = pathOf(req.url);
    if (pathname === TUS_PATH || pathname.startsWith(`${TUS_PATH}/`)) return await this.tus.handle(req, res);
    const method = req.method ?? 'GET';
    if (pathname === '/api/v1/user_uploads' && method === 'POST') {
      const caller = withUser(callerOf(req));
      return sendJson(res, 200, { result: 'success', msg: '', ...(await this.upload.serve(req, caller)) });
    }
    const emoji = /^\/api\/v1\/realm\/emoji\/([^/]+)$/.exec(pathname);
    if (emoji && method === 'POST') {
      const caller = withUser(callerOf(req));
      const form = await readImageForm(req, LIMITS.maxEmojiFileSizeMib * MIB);
      await this.customEmoji.execute(caller, decodeSegment(emoji[1]), form);
      return sendJson(res, 200, { result: 'success', msg: '' });
    }
    if (pathname === '/api/v1/users/me/avatar' && (method === 'POST' || method === 'DELETE')) {
      const caller = withUser(callerOf(req));
      const answer =
        method === 'POST'
          ? await this.avatars.set(caller, await readImageForm(req, LIMITS.maxAvatarFileSizeMib * MIB))
          : await this.avatars.remove(caller);
      return sendJson(res, 200, { result: 'success', msg: '', ...answer });
    }
    const realmImage = /^\/api\/v1\/realm\/(icon|logo)$/.exec(pathname);
    if (realmImage && (method === 'POST' || method === 'DELETE')) {
      const caller = withUser(callerOf(req));
      const which = realmImage[1] as 'icon' | 'logo';
      const query = new URLSearchParams(queryOf(req.url));
      const multipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
      const limit = (which === 'icon' ? LIMITS.maxIconFileSizeMib : LIMITS.maxLogoFileSizeMib) * MIB;
      // A POST without a multipart form has no file: its parameters are still read (url-encoded), as Django reads them.
      const form = method === 'POST' && multipart ? await readImageForm(req, limit) : undefined;
      const params = form ? { ...Object.fromEntries(query), ...form.fields } : await readRequestParams(req, query);
      const answer = await this.realmImages.execute(caller, which, params, method === 'POST' ? (form ?? { files: 0 }) : undefined);
      return sendJson(res, 200, { result: 'success', msg: '', ...answer });
    }
    if (pathname.startsWith(`${Uploads.USER_AVATARS_PATH}/`) && (method === 'GET' || method === 'HEAD')) {
      return await this.sendImage(req, res, pathname.slice(Uploads.USER_AVATARS_PATH.length + 1));
    }
    const temporary = /^\/user_uploads\/temporary\/([A-Za-z0-9_-]+)\/[^/]+$/.exec(pathname);
    if (temporary && (method === 'GET' || method === 'HEAD')) {
      return await this.files.send(req, res, await this.files.byToken(temporary[1]));
    }
    const exportArchive = /^\/user_uploads\/exports\/(.+)$/.exec(pathname);
    if (exportArchive && (method === 'GET' || method === 'HEAD')) {
      return await this.realmExports.send(req, res, callerOf(req), decodePath(exportArchive[1]));
    }
    const file = /^\/(api\/v1\/)?user_uploads\/(\d+)\/(.+)$/.exec(pathname);
    if (file && (method === 'GET' || method === 'HEAD')) {
      const rest = decodePath(file[3]);
      const attachment = await this.files.readable(callerOf(req), Number(file[2]), rest);
      if (file[1]) return sendJson(res, 200, { result: 'success', msg: '', ...(await this.files.temporaryUrl(attachment)) });
      return await this.files.send(req, res, attachment);
    }
    throw new ZulipError('NOT_FOUND', 'Not Found');
  }

  /** An avatar or custom emoji: public, as Zulip serves /user_avatars/; its URL changes with it (a version, a new name). */
  private async sendImage(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const image = await this.images.read(path);
    if (!image) throw new ZulipError('NOT_FOUND', 'Not Found');
    res.writeHead(200, { 'Content-Type': image.type, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    if (req.method === 'HEAD') {
      image.body.destroy();
      res.end();
      return;
    }
    await pipeline(image.body, res);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function withUser(caller: Caller): Caller & { user: NonNullable<Caller['user']> } {
  if (!caller.user) throw notLoggedIn();
  return caller as Caller & { user: NonNullable<Caller['user']> };
}

/** The request's path; a target no URL parser takes (an absolute-form one with a bad host) names nothing here. */
function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://uploads').pathname;
  } catch {
    throw new ZulipError('NOT_FOUND', 'Not Found');
  }
}

const MIB = 1024 * 1024;

/** The request's query string (without its "?"). */
function queryOf(url: string | undefined): string {
  const at = (url ?? '').indexOf('?');
  return at < 0 ? '' : (url ?? '').slice(at + 1);
}

/** A path segment as the client meant it; one whose percent-encoding is bad is taken as it is (and names nothing). */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A path segment as stored: bad percent-encoding or UTF-8 names no file. */
function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw fileNotFound();
  }
}

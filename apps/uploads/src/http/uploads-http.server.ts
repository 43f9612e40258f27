import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TUS_PATH } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { callerOf, sendJson, sendZulipError, type Caller } from './caller';
import { ServeFileRoute, fileNotFound } from './serve-file.route';
import { TusUploads } from './tus-uploads';
import { UploadFileRoute } from './upload-file.route';

const notLoggedIn = () => new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');

/**
 * The uploads service's own HTTP listener (UPLOADS_HTTP_PORT) for the routes that carry a
 * file's bytes, which cannot travel as JSON commands over NATS. Only the gateway calls it: it
 * admits the caller (credentials, rate limit) and streams the request here with the caller in
 * a header (see caller.ts); this listener writes Zulip's envelopes itself.
 */
@Injectable()
export class UploadsHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly upload: UploadFileRoute,
    private readonly files: ServeFileRoute,
    private readonly tus: TusUploads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.server = createServer((req, res) => void this.route(req, res));
    this.server.requestTimeout = 0; // large uploads take as long as they take; the gateway bounds idle sockets
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.UPLOADS_HTTP_PORT, '0.0.0.0', resolve);
    });
    this.logger.info({ port: this.config.UPLOADS_HTTP_PORT }, 'uploads HTTP listener ready');
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = String(req.headers['x-request-id'] ?? '');
    const url = new URL(req.url ?? '/', 'http://uploads');
    const pathname = url.pathname;
    try {
      if (pathname === TUS_PATH || pathname.startsWith(`${TUS_PATH}/`)) return await this.tus.handle(req, res);
      const method = req.method ?? 'GET';
      if (pathname === '/api/v1/user_uploads' && method === 'POST') {
        const caller = withUser(callerOf(req));
        return sendJson(res, 200, { result: 'success', msg: '', ...(await this.upload.serve(req, res, caller)) });
      }
      const temporary = /^\/user_uploads\/temporary\/([A-Za-z0-9_-]+)\/[^/]+$/.exec(pathname);
      if (temporary && (method === 'GET' || method === 'HEAD')) {
        return await this.files.send(req, res, await this.files.byToken(temporary[1]));
      }
      const file = /^\/(api\/v1\/)?user_uploads\/(\d+)\/(.+)$/.exec(pathname);
      if (file && (method === 'GET' || method === 'HEAD')) {
        const rest = decodePath(file[3]);
        const attachment = await this.files.readable(callerOf(req), Number(file[2]), rest);
        if (file[1]) return sendJson(res, 200, { result: 'success', msg: '', ...(await this.files.temporaryUrl(attachment)) });
        return await this.files.send(req, res, attachment);
      }
      throw new ZulipError('NOT_FOUND', 'Not Found');
    } catch (error) {
      req.resume();
      sendZulipError(res, error, requestId, (err) => this.logger.error({ err, requestId, path: pathname }, 'unexpected fault'));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function withUser(caller: Caller): Caller & { user: NonNullable<Caller['user']> } {
  if (!caller.user) throw notLoggedIn();
  return caller as Caller & { user: NonNullable<Caller['user']> };
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw fileNotFound();
  }
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, LOGGER, MetricsService, Shutdown, type AppConfig } from '@teamchat/platform';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { PollEventsRoute } from '../events/poll-events.route';
import { CommandRoutes, type CommandMatch } from './command-routes';
import { httpMetrics } from './http-metrics.middleware';
import { enterJson } from './json-routes';
import type { ApiRequest } from './request-context';
import { requestIdWithin } from './request-id.middleware';
import { UploadsProxy } from './uploads-proxy';
import { sendError } from './zulip-exception.filter';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's request handler, in front of Express: a /json request becomes its /api/v1 twin
 * marked as a session request (enterJson), GET /events goes to PollEventsRoute, a
 * request for a command route to CommandRoutes, and everything else to Express as before.
 * A command request gets what Express would have given it on the way (Express's request and
 * response objects, the request id, the timing, the same body parsers, the parameters its
 * router would have decoded), without Express's router walking its layers. Express keeps every
 * route too, so anything left to it is served exactly as before.
 */
@Injectable()
export class FrontDoor {
  private readonly measure: RequestHandler;
  /** The request's id and time (requestIdWithin), as Express's routes get them. */
  private readonly enter: RequestHandler;

  constructor(
    private readonly polls: PollEventsRoute,
    private readonly commands: CommandRoutes,
    private readonly uploads: UploadsProxy,
    private readonly shutdown: Shutdown,
    metrics: MetricsService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.measure = httpMetrics(metrics);
    this.enter = requestIdWithin(config.NATS_REQUEST_TIMEOUT_MS);
  }

  installOn(server: Server, app: Express, bodyParsers: RequestHandler[]): void {
    const others = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    const toExpress: Listener = (req, res) => {
      for (const listener of others) listener(req, res);
    };
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // Draining: every answer closes its connection, so keep-alive clients reconnect elsewhere.
      if (this.shutdown.isDraining()) res.shouldKeepAlive = false;
      // /json/... is /api/v1/... admitted by the session: from here on the same routes serve it.
      enterJson(req);
      if (this.polls.handles(req)) return void this.polls.serve(req, res);
      if (this.uploads.claims(req.url ?? '', req.method)) return toExpress(req, res);
      const matched = this.commands.match(req as ApiRequest);
      if (!matched) return toExpress(req, res);
      this.serveCommand(matched, app, bodyParsers, req as ApiRequest, res as Response);
    });
  }

  private serveCommand(matched: CommandMatch, app: Express, bodyParsers: RequestHandler[], req: ApiRequest, res: Response): void {
    // What Express's app.handle does first (x-powered-by is disabled): its request and response objects.
    (req as Request & { res: Response }).res = res;
    (res as Response & { req: Request }).req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals ??= Object.create(null) as Response['locals'];
    res.locals.route = matched.label;
    this.measure(req, res, () => undefined);
    let parser = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error) return void sendError(req, res, error, this.logger);
      const parse = bodyParsers[parser++];
      if (parse) return void parse(req, res, next);
      void this.commands.serveMatched(matched, req, res);
    };
    // Its id, and its time shared by every command it calls: what Express's routes get first too.
    this.enter(req, res, next);
  }
}

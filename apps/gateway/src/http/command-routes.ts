import { Inject, Injectable } from '@nestjs/common';
import { ENDPOINT_REGISTRY, expressPath, type ApiCommandDef, type Endpoint } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import type { ParamSpecs } from '@teamchat/zulip';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { AdmitCaller } from '../auth/admit-caller';
import { commandEnvelope, pathSegmentsMatch } from './endpoint-request';
import type { ApiRequest } from './request-context';
import { mountedElsewhere } from './route.decorator';
import { sendSuccess } from './success-envelope.interceptor';
import { sendError } from './zulip-exception.filter';

type AnyCommand = ApiCommandDef<ParamSpecs, unknown>;

const isCommand = (endpoint: Endpoint): endpoint is AnyCommand => 'subject' in endpoint;

/**
 * Every endpoint a service answers, served by one Express router built from the declarations
 * in libs/contracts, ahead of Nest's pipeline: caller, rate limit, parameters, one command,
 * envelope. Nest's guard/interceptor/filter pipeline cost more CPU than all of that together
 * (measured under `npm run bench:send`), and these routes hold no logic of their own to need
 * it. The steps are the same functions the Nest routes use: AdmitCaller, commandEnvelope,
 * sendSuccess, sendError.
 */
@Injectable()
export class CommandRoutes {
  readonly router = Router();

  constructor(
    private readonly admission: AdmitCaller,
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    for (const endpoint of [...ENDPOINT_REGISTRY].sort(literalSegmentsFirst)) {
      if (!isCommand(endpoint)) continue;
      this.router[endpoint.method](`/api/v1/${expressPath(endpoint)}`, (req: Request, res: Response, next: NextFunction) => {
        // A segment this route's declaration refuses leaves the request to the next route of the same shape.
        if (!pathSegmentsMatch(req as ApiRequest, endpoint)) return next();
        void this.serve(endpoint, req as ApiRequest, res);
      });
      mountedElsewhere(endpoint);
    }
  }

  private async serve(def: AnyCommand, req: ApiRequest, res: Response): Promise<void> {
    try {
      await this.admission.admit(req, res, def.auth);
      const data = await this.commands.call(def, commandEnvelope(req, def));
      if (!res.writableEnded) sendSuccess(res, data as object, req.ctx.ignored);
    } catch (error) {
      if (!res.writableEnded) sendError(req, res, error, this.logger);
    }
  }
}

/**
 * The order routes are tried in: by segment count (routes of different lengths never match the
 * same path), then a literal segment before a `{parameter}` at the first place they differ, so
 * `/users/me` is tried before `/users/{user_id}` whatever the declaration order; otherwise as
 * declared (`/users/{user_id}` before `/users/{email}`).
 */
function literalSegmentsFirst(a: Endpoint, b: Endpoint): number {
  const shape = (endpoint: Endpoint) => endpoint.path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
  const [left, right] = [shape(a), shape(b)];
  if (left.length !== right.length) return left.length - right.length;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return left[i] - right[i];
  return 0;
}

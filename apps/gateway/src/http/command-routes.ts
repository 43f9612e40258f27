import { Inject, Injectable } from '@nestjs/common';
import { ENDPOINT_REGISTRY, UsersGroups, expressPath, type ApiCommandDef, type Endpoint } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import type { ParamSpecs } from '@teamchat/zulip';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { EXACT_ROUTING } from './exact-routing';
import type { Logger } from 'pino';
import { AdmitCaller } from '../auth/admit-caller';
import { Sessions } from '../auth/sessions';
import { commandEnvelope, pathSegmentsMatch } from './endpoint-request';
import type { ApiRequest } from './request-context';
import { mountedElsewhere } from './route.decorator';
import { sendSuccess } from './success-envelope.interceptor';
import { sendError } from './zulip-exception.filter';

type AnyCommand = ApiCommandDef<ParamSpecs, unknown>;

const UPDATE_SETTINGS: Endpoint = UsersGroups.updateSettings;
const REGENERATE_API_KEY: Endpoint = UsersGroups.regenerateApiKey;

const isCommand = (endpoint: Endpoint): endpoint is AnyCommand => 'subject' in endpoint;

/** A command route ready to be matched without Express: its path split into segments. */
interface CompiledRoute {
  endpoint: AnyCommand;
  /** Literal segments, and null where a parameter goes. */
  segments: (string | null)[];
  names: string[];
  /** The last parameter takes the rest of the path (`{name+}`). */
  rest: boolean;
  /** The label requests are measured under (what Express's req.route.path was). */
  label: string;
}

/** A request's command route, with its path parameters decoded as Express decodes them. */
export interface CommandMatch {
  endpoint: AnyCommand;
  params: Record<string, string | string[]>;
  label: string;
}

/**
 * Every endpoint a service answers, served from their declarations in libs/contracts ahead of
 * Nest's pipeline: caller, rate limit, parameters, one command, envelope. Nest's
 * guard/interceptor/filter pipeline cost more CPU than all of that together (measured under
 * `npm run bench:send`), and these routes hold no logic of their own to need it. The steps are
 * the same functions the Nest routes use: AdmitCaller, commandEnvelope, sendSuccess, sendError.
 *
 * Two ways in, with one order of routes: `match`, which FrontDoor uses ahead of Express for the
 * ordinary requests (Express's router tried its layers one regular expression at a time, a
 * measurable share of every send), and the Express `router`, which serves whatever FrontDoor
 * leaves to Express (OPTIONS, HEAD, trailing slashes, empty or undecodable segments).
 */
@Injectable()
export class CommandRoutes {
  readonly router = Router(EXACT_ROUTING);
  private readonly table = new Map<string, CompiledRoute[]>();

  constructor(
    private readonly admission: AdmitCaller,
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly sessions: Sessions,
  ) {
    for (const endpoint of [...ENDPOINT_REGISTRY].sort(literalSegmentsFirst)) {
      if (!isCommand(endpoint)) continue;
      this.compile(endpoint);
      this.router[endpoint.method](`/api/v1/${expressPath(endpoint)}`, (req: Request, res: Response, next: NextFunction) => {
        // A segment this route's declaration refuses leaves the request to the next route of the same shape.
        if (!pathSegmentsMatch(req as ApiRequest, endpoint)) return next();
        void this.serve(endpoint, req as ApiRequest, res);
      });
      mountedElsewhere(endpoint);
    }
  }

  /**
   * The route Express would pick for `method` and the URL's path, or undefined when there is
   * none or the path is one to leave to Express (an empty segment, a trailing slash, one that does
   * not decode). Literal segments compare exactly, as every route does (EXACT_ROUTING).
   */
  match(req: ApiRequest): CommandMatch | undefined {
    const routes = this.table.get(req.method ?? '');
    if (!routes) return undefined;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!path.startsWith('/api/v1/')) return undefined;
    const segments = path.slice('/api/v1/'.length).split('/');
    if (segments.includes('')) return undefined;
    for (const route of routes) {
      const params = matchSegments(route, segments);
      if (params === null) continue;
      if (params === undefined) return undefined; // undecodable: Express answers it its own way
      req.params = params as ApiRequest['params'];
      if (pathSegmentsMatch(req, route.endpoint)) return { endpoint: route.endpoint, params, label: route.label };
    }
    return undefined;
  }

  /** Serves a request `match` found a route for (its body parsed, its context assigned). */
  serveMatched(matched: CommandMatch, req: ApiRequest, res: Response): Promise<void> {
    return this.serve(matched.endpoint, req, res);
  }

  private compile(endpoint: AnyCommand): void {
    const parts = expressPath(endpoint).split('/');
    const route: CompiledRoute = {
      endpoint,
      segments: parts.map((part) => (part.startsWith(':') || part.startsWith('*') ? null : part)),
      names: parts.filter((part) => part.startsWith(':') || part.startsWith('*')).map((part) => part.slice(1)),
      rest: endpoint.restPathParam !== undefined,
      label: `/api/v1/${expressPath(endpoint)}`,
    };
    const method = endpoint.method.toUpperCase();
    if (!this.table.has(method)) this.table.set(method, []);
    this.table.get(method)!.push(route);
  }

  private async serve(def: AnyCommand, req: ApiRequest, res: Response): Promise<void> {
    try {
      await this.admission.admit(req, res, def.auth);
      const envelope = commandEnvelope(req, def);
      const data = await this.commands.call(def, envelope, { within: req.ctx.time });
      // A new password ends the user's other browser sessions (the one that changed it stays, as in Zulip).
      if (def === UPDATE_SETTINGS && (envelope.params as { new_password?: string }).new_password !== undefined && req.ctx.user) {
        await this.sessions.endAllOf(req.ctx.user.id, req.ctx.session);
      }
      // A browser that regenerated its user's API key stays logged in with the new one; the
      // user's other sessions held the old key and end (they would be refused anyway).
      if (def === REGENERATE_API_KEY && req.ctx.session && req.ctx.user) {
        await this.sessions.rekey(req, (data as { api_key: string }).api_key);
        await this.sessions.endAllOf(req.ctx.user.id, req.ctx.session);
      }
      if (!res.writableEnded) sendSuccess(res, data as object, req.ctx.ignored);
    } catch (error) {
      if (!res.writableEnded) sendError(req, res, error, this.logger);
    }
  }
}

/**
 * The route's parameters when the segments fit it, null when they do not, undefined when a
 * parameter does not decode (Express answers that itself).
 */
function matchSegments(route: CompiledRoute, segments: string[]): Record<string, string | string[]> | null | undefined {
  const count = route.segments.length;
  if (route.rest ? segments.length < count : segments.length !== count) return null;
  const params: Record<string, string | string[]> = {};
  let name = 0;
  for (let i = 0; i < count; i++) {
    const literal = route.segments[i];
    if (literal !== null) {
      if (literal !== segments[i]) return null;
      continue;
    }
    const taken = route.rest && i === count - 1 ? segments.slice(i) : [segments[i]];
    const decoded: string[] = [];
    for (const segment of taken) {
      try {
        decoded.push(decodeURIComponent(segment));
      } catch {
        return undefined;
      }
    }
    params[route.names[name++]] = route.rest && i === count - 1 ? decoded : decoded[0];
  }
  return params;
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

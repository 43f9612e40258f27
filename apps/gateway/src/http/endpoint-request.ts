import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiCommand, ApiCommandDef, Endpoint } from '@teamchat/contracts';
import { ZulipError, decodeParams, type DecodedParams, type ParamSpecs } from '@teamchat/zulip';
import { rawParams, type ApiRequest } from './request-context';

/**
 * A command's envelope from the request: the organization and caller already identified, and
 * the parameters decoded by the command's one declaration (path segments included).
 */
export function commandEnvelope<S extends ParamSpecs>(req: ApiRequest, def: ApiCommandDef<S, unknown>): ApiCommand<DecodedParams<S>> {
  const values = decodeEndpointParams(req, def);
  if (!req.ctx.realm) throw new Error(`${def.subject} needs an organization; declare its auth as 'realm' or stronger`);
  return {
    realm: req.ctx.realm,
    user: req.ctx.user,
    params: values,
    requestId: req.ctx.requestId,
    client: clientName(req.header('user-agent')),
  };
}

/** The decoded parameters of an endpoint the gateway serves itself (no command behind it). */
export const ParamsOf = createParamDecorator(<S extends ParamSpecs>(endpoint: Endpoint<S>, context: ExecutionContext): DecodedParams<S> =>
  decodeEndpointParams(context.switchToHttp().getRequest<ApiRequest>(), endpoint),
);

/** Decodes the request's parameters by `specs`; names it does not declare are reported as ignored. */
export function decodeRequest<S extends ParamSpecs>(req: ApiRequest, specs: S): DecodedParams<S> {
  const { values, ignored } = decodeParams(specs, rawParams(req));
  req.ctx.ignored = ignored;
  return values;
}

/** What any path no route matches gets (see ZulipExceptionFilter). */
const notFound = () => new ZulipError('NOT_FOUND', 'Not Found');

/**
 * Decodes an endpoint's parameters. Path segments are decoded by the same declaration as any
 * parameter; a segment the declaration refuses (`/drafts/abc` for an integer) matches no route,
 * as with Zulip's URL patterns (`<int:draft_id>`): CommandRoutes passes the request on to the
 * next route (pathSegmentsMatch), and with none left it is a 404 NOT_FOUND like any unknown
 * path, before the other parameters are looked at. The query string and body never supply a
 * path parameter.
 */
function decodeEndpointParams<S extends ParamSpecs>(req: ApiRequest, endpoint: Endpoint<S>): DecodedParams<S> {
  if (endpoint.pathParams.length === 0) return decodeRequest(req, endpoint.params);
  const pathValues = decodePathSegments(req, endpoint);
  if (!pathValues) throw notFound();
  const otherSpecs: ParamSpecs = {};
  for (const [name, spec] of Object.entries(endpoint.params)) if (!endpoint.pathParams.includes(name)) otherSpecs[name] = spec;
  const values = decodeRequest(req, otherSpecs);
  return { ...values, ...pathValues } as DecodedParams<S>;
}

/**
 * Whether the request's path segments are what the endpoint declares: when not, another route
 * of the same shape may take the request (`/users/{user_id}`, then `/users/{email}`).
 */
export const pathSegmentsMatch = (req: ApiRequest, endpoint: Endpoint): boolean =>
  endpoint.pathParams.length === 0 || decodePathSegments(req, endpoint) !== null;

/** The path segments decoded by their declarations, or null when one is refused. */
function decodePathSegments(req: ApiRequest, endpoint: Endpoint): Record<string, unknown> | null {
  const pathSpecs: ParamSpecs = {};
  const segments: Record<string, string> = Object.create(null);
  for (const name of endpoint.pathParams) {
    pathSpecs[name] = endpoint.params[name];
    const value = (req.params as Record<string, unknown>)[name];
    if (typeof value === 'string') segments[name] = value;
    // A parameter that takes the rest of the path arrives as its decoded segments.
    else if (Array.isArray(value)) segments[name] = value.join('/');
  }
  let pathValues: Record<string, unknown>;
  try {
    pathValues = decodeParams(pathSpecs, segments).values;
  } catch (error) {
    if (error instanceof ZulipError) return null;
    throw error;
  }
  // Only a value's canonical text names it: `/drafts/7.0` or `/drafts/7e0` is not draft 7.
  for (const name of endpoint.pathParams) {
    if (pathSpecs[name].wire === 'json' && JSON.stringify(pathValues[name]) !== segments[name]) return null;
  }
  return pathValues;
}

/** Zulip names the client by its User-Agent's first product token ("ZulipMobile/27.1 …"). */
function clientName(userAgent: string | undefined): string {
  const token = (userAgent ?? '').trim().split(/[/\s]/)[0];
  return /^[A-Za-z0-9._-]{1,30}$/.test(token) ? token : 'API';
}

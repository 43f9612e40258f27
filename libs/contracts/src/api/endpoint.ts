import type { z } from 'zod';
import type { ParamSpecs } from '@teamchat/zulip';

/**
 * Who may call an endpoint:
 * - `user`: an authenticated user of the organization the host selects;
 * - `spectator`: as `user`, or nobody when the organization has public access;
 * - `realm`: nobody needs to log in, but the host must select an organization;
 * - `none`: no organization or user is looked up.
 */
export type AuthMode = 'user' | 'spectator' | 'realm' | 'none';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A success body's own keys (the envelope's `result` and `msg` are added around it). */
export type ResponseSchema = z.ZodObject;

/**
 * How an endpoint is reached: `'GET /drafts'`, `'PATCH /drafts/{draft_id}'` (below `/api/v1`).
 * A last segment written `{name+}` takes the rest of the path, slashes included (Zulip's
 * `<path:name>`): `'PATCH /navigation_views/{fragment+}'` serves `/navigation_views/narrow/is/starred`.
 */
export type RouteText = `${Uppercase<HttpMethod>} /${string}`;

export interface EndpointSpec<S extends ParamSpecs, R extends ResponseSchema> {
  route: RouteText;
  /** One line for the API reference. */
  summary: string;
  /** `user` unless said otherwise. */
  auth?: AuthMode;
  params: S;
  /** The success body, declared once: the document, the tests and the result type all read it. */
  response: R;
}

/** One HTTP endpoint of the API: everything the gateway, the OpenAPI document and the tests need. */
export interface Endpoint<S extends ParamSpecs = ParamSpecs, R extends ResponseSchema = ResponseSchema> {
  readonly method: HttpMethod;
  /** Zulip's path below `/api/v1`, `{name}` for a path segment. */
  readonly path: string;
  /** The `{name}` segments of `path`, each declared in `params`. */
  readonly pathParams: readonly string[];
  /** The path parameter that takes the rest of the path, slashes included (`{name+}` in the route). */
  readonly restPathParam?: string;
  readonly summary: string;
  readonly auth: AuthMode;
  readonly params: S;
  readonly response: R;
  /** The service that answers it (the gateway for the ones it serves itself). */
  readonly tag: string;
}

/** Every endpoint declared, in declaration order: what the document lists and the gateway mounts. */
export const ENDPOINT_REGISTRY: Endpoint[] = [];

export function endpointOf<S extends ParamSpecs, R extends ResponseSchema>(
  tag: string,
  spec: EndpointSpec<S, R>,
): Endpoint<S, R> {
  const [method, route] = spec.route.split(' ') as [Uppercase<HttpMethod>, string];
  const segments = [...route.matchAll(/\{([a-z_]+)(\+?)\}/g)];
  const pathParams = segments.map((match) => match[1]);
  for (const name of pathParams) {
    if (!(name in spec.params)) throw new Error(`${spec.route}: path segment {${name}} is not a declared parameter`);
  }
  const rest = segments.find((match) => match[2] === '+');
  if (rest && !route.endsWith(`/${rest[0]}`)) throw new Error(`${spec.route}: only the last segment may take the rest of the path`);
  return {
    method: method.toLowerCase() as HttpMethod,
    // The documented path names every parameter alike, as Zulip's OpenAPI file does.
    path: route.replace(/\{([a-z_]+)\+\}/g, '{$1}'),
    pathParams,
    ...(rest ? { restPathParam: rest[1] } : {}),
    summary: spec.summary,
    auth: spec.auth ?? 'user',
    params: spec.params,
    response: spec.response,
    tag,
  };
}

/** An endpoint the gateway serves itself, with no command behind it. */
export function defineEndpoint<S extends ParamSpecs, R extends ResponseSchema>(spec: EndpointSpec<S, R>): Endpoint<S, R> {
  const endpoint = endpointOf('gateway', spec);
  ENDPOINT_REGISTRY.push(endpoint as unknown as Endpoint);
  return endpoint;
}

/**
 * The Nest/Express form of a path: `/drafts/{draft_id}` → `drafts/:draft_id`; a parameter that
 * takes the rest of the path becomes a wildcard (`navigation_views/*fragment`), which Express
 * hands over as the list of its segments.
 */
export const expressPath = (endpoint: Pick<Endpoint, 'path' | 'restPathParam'>): string =>
  endpoint.path.slice(1).replace(/\{([a-z_]+)\}/g, (_match, name: string) => (name === endpoint.restPathParam ? `*${name}` : `:${name}`));

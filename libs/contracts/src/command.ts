import { z } from 'zod';
import type { DecodedParams, ErrorBody, ParamSpecs } from '@teamchat/zulip';
import type { ServiceName } from './services';
import { commandSubject } from './subject';
import { ENDPOINT_REGISTRY, endpointOf, type AuthMode, type Endpoint, type EndpointSpec, type ResponseSchema } from './api/endpoint';

/** The organization a request is for, as resolved from its host name. */
export const realmRefSchema = z.object({
  id: z.number().int(),
  subdomain: z.string(),
  name: z.string(),
  url: z.string(),
  host: z.string(),
});
export type RealmRef = z.infer<typeof realmRefSchema>;

/** The authenticated caller. `email` is the address the API shows (may be a dummy one). */
export const authUserSchema = z.object({
  id: z.number().int(),
  realmId: z.number().int(),
  email: z.string(),
  deliveryEmail: z.string(),
  fullName: z.string(),
  role: z.number().int(),
  isBot: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** Every command that serves an API endpoint carries this envelope. */
export interface ApiCommand<P> {
  realm: RealmRef;
  user: AuthUser | null;
  params: P;
  requestId: string;
  /** The client's name (first token of its User-Agent), as Zulip records "sending_client". */
  client?: string;
}

/** The command of an endpoint only logged-in users may call: its caller is always there. */
export type UserCommand<P> = ApiCommand<P> & { user: AuthUser };

/** The command an endpoint of auth mode `A` sends: `user` endpoints carry their caller. */
export type CommandOf<A extends AuthMode, P> = A extends 'user' ? UserCommand<P> : ApiCommand<P>;

export type CommandReply<R> = { ok: true; data: R } | { ok: false; error: ErrorBody };

/**
 * A request/reply command: its subject, the service that answers it, the runtime schema of
 * its payload, and (for API commands) the HTTP parameters the gateway decodes for it.
 */
export interface CommandDef<Payload, Result> {
  readonly subject: string;
  readonly service: ServiceName;
  readonly payload: z.ZodType<Payload>;
  /** Phantom: the result type, for typing callers. */
  readonly _result?: Result;
}

/** A command that serves one HTTP endpoint: the endpoint's declaration and the command's subject. */
export interface ApiCommandDef<S extends ParamSpecs, Result, R extends ResponseSchema = ResponseSchema, A extends AuthMode = AuthMode>
  extends CommandDef<CommandOf<A, DecodedParams<S>>, Result>,
    Endpoint<S, R> {}

/** Every command defined, so a service can check at start that it handles all of its own. */
export const COMMAND_REGISTRY: CommandDef<unknown, unknown>[] = [];

function register<D extends { subject: string; service: ServiceName }>(def: D): D {
  COMMAND_REGISTRY.push(def as unknown as CommandDef<unknown, unknown>);
  return def;
}

export function defineCommand<Payload, Result>(
  service: ServiceName,
  verb: string,
  payload: z.ZodType<Payload>,
): CommandDef<Payload, Result> {
  return register<CommandDef<Payload, Result>>({ subject: commandSubject(service, verb), service, payload });
}

/**
 * An API command: the endpoint it serves (route, parameters, success body) declared once; the
 * payload schema is derived from the parameters and the result type from the success body.
 */
export function defineApiCommand<S extends ParamSpecs, R extends ResponseSchema, const A extends AuthMode = 'user'>(
  service: ServiceName,
  verb: string,
  spec: EndpointSpec<S, R> & { auth?: A },
): ApiCommandDef<S, z.output<R>, R, A> {
  const paramShape = Object.fromEntries(Object.entries(spec.params).map(([name, p]) => [name, p.schema.optional()]));
  const payload = z.object({
    realm: realmRefSchema,
    // The type's promise, checked where the command arrives: a `user` endpoint's command names its caller.
    user: (spec.auth ?? 'user') === 'user' ? authUserSchema : authUserSchema.nullable(),
    params: z.object(paramShape),
    requestId: z.string(),
    client: z.string().max(30).optional(),
  }) as unknown as z.ZodType<CommandOf<A, DecodedParams<S>>>;
  const def = register<ApiCommandDef<S, z.output<R>, R, A>>({
    ...endpointOf(service, spec),
    subject: commandSubject(service, verb),
    service,
    payload,
  });
  ENDPOINT_REGISTRY.push(def as unknown as Endpoint);
  return def;
}

export type PayloadOf<C> = C extends CommandDef<infer P, unknown> ? P : never;
export type ResultOf<C> = C extends CommandDef<unknown, infer R> ? R : C extends { _result?: infer R } ? R : never;

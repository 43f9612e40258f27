import { z } from 'zod';
import { SERVER_VERSION, ZULIP_FEATURE_LEVEL, type ParamSpec } from '@teamchat/zulip';
import { apiSchemas, errorBodySchema } from './api-schemas';
import { ENDPOINT_REGISTRY, type Endpoint } from './endpoint';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  /** The root URL the API is served at (`EXTERNAL_URL`); `/api/v1` is appended. */
  externalUrl: string;
}

const SAFE_INT_BOUNDS = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
const componentRef = (id: string) => `#/components/schemas/${id}`;

/**
 * zod writes every integer with the safe-integer bounds and every converted schema with its
 * own `$schema`/`$id`; in the document both are noise.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' || key === 'maximum') && value === SAFE_INT_BOUNDS[key]) continue;
    out[key] = tidy(value);
  }
  return out;
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  tidy(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' })) as JsonSchema;

/** `GET /users/me/{stream_id}/topics` → `getUsersMeStreamIdTopics`. */
export const operationId = (endpoint: Pick<Endpoint, 'method' | 'path'>): string =>
  endpoint.method +
  endpoint.path
    .split(/[/_{}]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

/** The component id of an endpoint's success body. */
export const responseComponentId = (endpoint: Pick<Endpoint, 'method' | 'path'>): string => {
  const id = operationId(endpoint);
  return `${id[0].toUpperCase()}${id.slice(1)}Response`;
};

/** The envelope every success body has around the endpoint's own keys. */
const successEnvelopes = new Map<Endpoint, z.ZodObject>();
function successEnvelope(endpoint: Endpoint): z.ZodObject {
  let envelope = successEnvelopes.get(endpoint);
  if (!envelope) {
    envelope = endpoint.response.extend({
      result: z.literal('success'),
      msg: z.string(),
      /** Parameters the endpoint does not support, named so a client can tell a typo. */
      ignored_parameters_unsupported: z.array(z.string()).optional(),
    });
    apiSchemas.add(envelope, { id: responseComponentId(endpoint) });
    successEnvelopes.set(endpoint, envelope);
  }
  return envelope;
}

function paramSchema(spec: ParamSpec<unknown>): JsonSchema {
  const schema = toSchema(spec.schema, 'input');
  if (spec.defaultValue !== undefined) schema.default = spec.defaultValue;
  return schema;
}

/**
 * Zulip sends lists, objects, booleans and integers as JSON text: such a parameter is described
 * by its JSON content, a plain-text one by its schema.
 */
function queryParameter(name: string, spec: ParamSpec<unknown>, location: 'query' | 'path'): JsonSchema {
  const description = spec.aliases.length ? `Also accepted as ${spec.aliases.map((a) => `\`${a}\``).join(', ')}.` : undefined;
  return {
    name,
    in: location,
    required: location === 'path' || spec.isRequired(),
    ...(description ? { description } : {}),
    ...(spec.wire === 'json' && location === 'query'
      ? { content: { 'application/json': { schema: paramSchema(spec) } } }
      : { schema: paramSchema(spec) }),
  };
}

function formBody(endpoint: Endpoint, names: string[]): JsonSchema | undefined {
  if (names.length === 0) return undefined;
  const properties: JsonSchema = {};
  const encoding: JsonSchema = {};
  const required: string[] = [];
  for (const name of names) {
    const spec = endpoint.params[name];
    properties[name] = paramSchema(spec);
    if (spec.wire === 'json') encoding[name] = { contentType: 'application/json' };
    if (spec.isRequired()) required.push(name);
  }
  return {
    required: required.length > 0,
    content: {
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
        ...(Object.keys(encoding).length ? { encoding } : {}),
      },
    },
  };
}

const SECURITY: Record<Endpoint['auth'], unknown[]> = {
  user: [{ basicAuth: [] }],
  // An organization with public access lets anyone read, unauthenticated.
  spectator: [{ basicAuth: [] }, {}],
  realm: [],
  none: [],
};

function operation(endpoint: Endpoint): JsonSchema {
  const inPath = new Set(endpoint.pathParams);
  const others = Object.keys(endpoint.params).filter((name) => !inPath.has(name));
  const inBody = endpoint.method === 'get' || endpoint.method === 'delete' ? [] : others;
  const parameters = [
    ...endpoint.pathParams.map((name) => queryParameter(name, endpoint.params[name], 'path')),
    ...others.filter((name) => !inBody.includes(name)).map((name) => queryParameter(name, endpoint.params[name], 'query')),
  ];
  const requestBody = formBody(endpoint, inBody);
  successEnvelope(endpoint);
  return {
    operationId: operationId(endpoint),
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: SECURITY[endpoint.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': {
        description: 'Success.',
        content: { 'application/json': { schema: { $ref: componentRef(responseComponentId(endpoint)) } } },
      },
      '400': { $ref: '#/components/responses/BadRequest' },
      ...(endpoint.auth === 'user' || endpoint.auth === 'spectator' ? { '401': { $ref: '#/components/responses/Unauthorized' } } : {}),
      ...(endpoint.pathParams.length ? { '404': { $ref: '#/components/responses/NotFound' } } : {}),
      '429': { $ref: '#/components/responses/RateLimited' },
    },
  };
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: componentRef('ErrorBody') } } },
});

/**
 * The OpenAPI 3.1 description of the API, generated from the endpoint declarations: every
 * endpoint, its parameters, its success body, its errors and who may call it.
 */
export function buildOpenApiDocument(options: OpenApiOptions): JsonSchema {
  void errorBodySchema; // registered as a component where it is declared
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of ENDPOINT_REGISTRY) {
    paths[endpoint.path] ??= {};
    if (paths[endpoint.path][endpoint.method]) throw new Error(`${endpoint.method} ${endpoint.path} is declared twice`);
    paths[endpoint.path][endpoint.method] = operation(endpoint);
  }
  const { schemas } = z.toJSONSchema(apiSchemas, { target: 'draft-2020-12', uri: componentRef, unrepresentable: 'any' });
  return {
    openapi: '3.1.0',
    info: {
      title: 'teamchat',
      version: SERVER_VERSION,
      description:
        `A Zulip-compatible team chat server (Zulip API feature level ${ZULIP_FEATURE_LEVEL}). ` +
        'Requests authenticate with HTTP Basic auth (email and API key); parameters are sent as a form ' +
        '(or in the query string), lists, objects, booleans and integers as JSON text. Every answer is ' +
        'a JSON object whose `result` is "success" or "error"; an error carries `msg` and `code`.',
    },
    servers: [{ url: `${options.externalUrl.replace(/\/$/, '')}/api/v1` }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: tidy(schemas),
      responses: {
        BadRequest: errorResponse('Invalid or missing parameters, or a request the rules refuse (`code` says which).'),
        Unauthorized: errorResponse('Missing or invalid credentials, or a deactivated user or organization.'),
        NotFound: errorResponse('No such resource, or one the caller may not see.'),
        RateLimited: errorResponse('Too many requests: wait `retry-after` seconds.'),
      },
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'The user’s email and API key (POST /fetch_api_key).' },
      },
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { workspaceRoot } from './test-environment';

type Schema = Record<string, unknown>;

const SPEC_PATH = path.resolve(workspaceRoot(), '../shared/reference/zulip-openapi.yaml');
let spec: Schema | undefined;
const validators = new Map<string, ValidateFunction>();

function loadSpec(): Schema {
  spec ??= parse(fs.readFileSync(process.env.ZULIP_OPENAPI ?? SPEC_PATH, 'utf8')) as Schema;
  return spec;
}

function resolveRef(ref: string): Schema {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<Schema>((node, key) => node[key] as Schema, loadSpec());
}

/**
 * Zulip's file writes objects as `allOf: [base, {additionalProperties: false, properties}]`,
 * which plain JSON Schema reads as "no properties at all". Zulip's own tests merge the
 * branches first; so does this: one object with every property, closed if any branch was.
 */
function normalize(schema: unknown, seen = new Set<string>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => normalize(item, seen));
  if (!schema || typeof schema !== 'object') return schema;
  let node = schema as Schema;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return {};
    return normalize(resolveRef(node.$ref), new Set([...seen, node.$ref]));
  }
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map((part) => normalize(part, seen) as Schema);
    const { allOf: _allOf, ...rest } = node;
    node = parts.reduce<Schema>((merged, part) => mergeObjects(merged, part), normalize(rest, seen) as Schema);
    return node;
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    out[key] = key === 'properties' ? mapValues(value as Schema, (v) => normalize(v, seen)) : normalize(value, seen);
  }
  return out;
}

function mergeObjects(a: Schema, b: Schema): Schema {
  const properties = { ...(a.properties as Schema) };
  for (const [name, value] of Object.entries((b.properties as Schema) ?? {})) {
    properties[name] = properties[name] ? { ...(properties[name] as Schema), ...(value as Schema) } : value;
  }
  const required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  const closed = a.additionalProperties === false || b.additionalProperties === false;
  const merged: Schema = { ...a, ...b, properties };
  if (required.length) merged.required = required;
  if (closed) merged.additionalProperties = false;
  else if (a.additionalProperties !== undefined && b.additionalProperties === undefined) merged.additionalProperties = a.additionalProperties;
  return merged;
}

const mapValues = (obj: Schema, fn: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(obj ?? {}).map(([k, v]) => [k, fn(v)]));

/** The validator of one operation's response schema (e.g. `get`, `/users`, 200). */
export function responseValidator(method: string, route: string, status = 200): ValidateFunction {
  const key = `${method} ${route} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const paths = loadSpec().paths as Record<string, Record<string, Schema>>;
  const operation = paths[route]?.[method.toLowerCase()];
  if (!operation) throw new Error(`No operation ${method} ${route} in the OpenAPI file`);
  let response = (operation.responses as Schema)[String(status)] as Schema;
  if (typeof response?.$ref === 'string') response = resolveRef(response.$ref);
  const content = (response?.content as Schema)?.['application/json'] as Schema;
  if (!content) throw new Error(`No JSON ${status} response for ${method} ${route}`);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(normalize(content.schema) as Schema);
  validators.set(key, validate);
  return validate;
}

/**
 * Jest helper: fails with the schema errors when `body` does not match the operation's schema.
 * `notYetServed` names required fields a later issue adds (say which, where it is called);
 * only their absence is forgiven, never a wrong value.
 */
export function expectMatchesOpenApi(
  method: string,
  route: string,
  body: unknown,
  status = 200,
  notYetServed: string[] = [],
): void {
  const validate = responseValidator(method, route, status);
  if (validate(body)) return;
  const errors = (validate.errors ?? []).filter(
    (error) => !(error.keyword === 'required' && notYetServed.includes(String(error.params.missingProperty))),
  );
  if (errors.length > 0) {
    throw new Error(`Response does not match ${method.toUpperCase()} ${route} ${status}:\n${JSON.stringify(errors, null, 2)}`);
  }
}

/**
 * The channel permission-group fields the reference schemas require, which arrive with user
 * groups (a later issue): pass as `notYetServed` for channel and subscription records.
 */
export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
];

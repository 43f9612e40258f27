import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { workspaceRoot } from './test-environment';

type Schema = Record<string, unknown>;

/** Where CI keeps Zulip's OpenAPI description: beside the repository, not in it. */
export const ZULIP_REFERENCE_PATH =
  process.env.ZULIP_OPENAPI ?? path.resolve(workspaceRoot(), '../shared/reference/zulip-openapi.yaml');

let reference: Schema | undefined;

/**
 * Zulip's description, parsed once per test file and frozen (every caller only reads it):
 * parsing it takes about 300 ms, and zulipResponseErrors needed it for every answer it had not
 * checked before, most of the time documented-examples.spec took.
 */
export function loadZulipReference(): Schema | undefined {
  if (reference) return reference;
  if (!fs.existsSync(ZULIP_REFERENCE_PATH)) return undefined;
  reference = deepFreeze(parse(fs.readFileSync(ZULIP_REFERENCE_PATH, 'utf8')) as Schema);
  return reference;
}

/** Freezes the plain objects and arrays YAML parsed, all the way down. */
function deepFreeze<T>(value: T): T {
  const plain = Array.isArray(value) || (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype);
  if (plain && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const pointerGet = (root: Schema, ref: string): Schema =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Schema>((node, key) => node?.[key] as Schema, root);

/**
 * Zulip's file writes objects as `allOf: [base, {additionalProperties: false, properties}]`;
 * Zulip's own tests merge the branches first, and so does this: one object with every property.
 * References are resolved (a cycle becomes `{}`); examples and extensions are dropped.
 */
export function normalizeReference(schema: unknown, root: Schema, seen = new Set<string>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => normalizeReference(item, root, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return {};
    return normalizeReference(pointerGet(root, node.$ref), root, new Set([...seen, node.$ref]));
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    return (allOf as unknown[])
      .map((part) => normalizeReference(part, root, seen) as Schema)
      .reduce<Schema>((merged, part) => mergeObjects(merged, part), normalizeReference(rest, root, seen) as Schema);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key === 'description' || key.startsWith('x-')) continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, normalizeReference(v, root, seen)]))
        : normalizeReference(value, root, seen);
  }
  return out;
}

function mergeObjects(a: Schema, b: Schema): Schema {
  const properties = { ...(a.properties as Schema) };
  for (const [name, value] of Object.entries((b.properties as Schema) ?? {})) {
    properties[name] = properties[name] ? { ...(properties[name] as Schema), ...(value as Schema) } : value;
  }
  const required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  const merged: Schema = { ...a, ...b, properties };
  if (required.length) merged.required = required;
  return merged;
}

/** The JSON types a schema allows (`integer` counted as a kind of `number` when compared). */
function typesOf(schema: Schema): Set<string> | undefined {
  const types = new Set<string>();
  if (typeof schema.type === 'string') types.add(schema.type);
  else if (Array.isArray(schema.type)) schema.type.forEach((t) => types.add(String(t)));
  else if ('const' in schema) types.add(schema.const === null ? 'null' : typeof schema.const);
  else if (Array.isArray(schema.enum)) schema.enum.forEach((v) => types.add(v === null ? 'null' : typeof v));
  if (schema.nullable === true) types.add('null');
  return types.size ? types : undefined;
}

const branchesOf = (schema: Schema): Schema[] | undefined =>
  (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;

const allowsNull = (schema: Schema): boolean =>
  schema.nullable === true ||
  (typesOf(schema)?.has('null') ?? false) ||
  (branchesOf(schema)?.some(allowsNull) ?? false);

const typeFits = (ours: string, theirs: Set<string>) =>
  theirs.has(ours) || (ours === 'integer' && theirs.has('number')) || (ours === 'number' && theirs.has('integer'));

/**
 * Where `ours` (resolved by `resolve`) promises what `theirs` does not allow: each message
 * names the JSON path. Every property we declare must be declared there with a compatible
 * type and value set, and every property required there must be declared and required here.
 */
export function conformanceErrors(ours: Schema, theirs: Schema, at: string, resolve: (schema: Schema) => Schema): string[] {
  ours = resolve(ours);
  if (Object.keys(theirs).length === 0 || Object.keys(ours).length === 0) return [];

  const ourBranches = branchesOf(ours);
  if (ourBranches) {
    const nonNull = ourBranches.map(resolve).filter((branch) => branch.type !== 'null');
    const errors = nonNull.length < ourBranches.length && !allowsNull(theirs) ? [`${at}: may be null here, never in Zulip's`] : [];
    return errors.concat(nonNull.flatMap((branch, i) => conformanceErrors(branch, theirs, nonNull.length > 1 ? `${at}|${i}` : at, resolve)));
  }

  const theirBranches = branchesOf(theirs);
  if (theirBranches) {
    // The closest branch: one whose discriminating values (`type`, `op`) agree with ours if
    // any does, then the fewest differences.
    const discriminatedOut = (errors: string[]) => errors.some((error) => error.startsWith(`${at}.`) && /^[^.]*\.[^.]+: values /.test(error.slice(at.length)));
    let best: { errors: string[]; out: boolean } | undefined;
    for (const branch of theirBranches) {
      const errors = conformanceErrors(ours, { ...branch, ...(theirs.nullable ? { nullable: true } : {}) }, at, resolve);
      if (errors.length === 0) return [];
      const out = discriminatedOut(errors);
      if (!best || (best.out && !out) || (best.out === out && errors.length < best.errors.length)) best = { errors, out };
    }
    return best?.errors ?? [];
  }

  const errors: string[] = [];
  const ourTypes = typesOf(ours);
  const theirTypes = typesOf(theirs);
  if (ourTypes && theirTypes) {
    for (const type of ourTypes) if (!typeFits(type, theirTypes)) errors.push(`${at}: ${type} here, ${[...theirTypes].join('|')} in Zulip's`);
  }
  const ourValues = 'const' in ours ? [ours.const] : (ours.enum as unknown[] | undefined);
  if (ourValues && Array.isArray(theirs.enum)) {
    const extra = ourValues.filter((value) => !(theirs.enum as unknown[]).includes(value));
    if (extra.length) errors.push(`${at}: values ${JSON.stringify(extra)} are not among Zulip's ${JSON.stringify(theirs.enum)}`);
  }
  if (errors.length) return errors;

  if (ourTypes?.has('object') || ours.properties) {
    const ourProps = (ours.properties ?? {}) as Record<string, Schema>;
    const theirProps = (theirs.properties ?? {}) as Record<string, Schema>;
    const theirExtra = theirs.additionalProperties;
    for (const [name, schema] of Object.entries(ourProps)) {
      if (theirProps[name]) errors.push(...conformanceErrors(schema, theirProps[name], `${at}.${name}`, resolve));
      else if (theirExtra && typeof theirExtra === 'object') errors.push(...conformanceErrors(schema, theirExtra as Schema, `${at}.${name}`, resolve));
      else if (theirs.properties || theirExtra === false) errors.push(`${at}.${name}: not in Zulip's description`);
    }
    const ourRequired = new Set((ours.required as string[]) ?? []);
    for (const name of (theirs.required as string[]) ?? []) {
      if (!(name in ourProps)) errors.push(`${at}.${name}: required in Zulip's, not returned here`);
      else if (!ourRequired.has(name)) errors.push(`${at}.${name}: required in Zulip's, optional here`);
    }
    const ourExtra = ours.additionalProperties;
    if (ourExtra && typeof ourExtra === 'object' && theirExtra && typeof theirExtra === 'object') {
      errors.push(...conformanceErrors(ourExtra as Schema, theirExtra as Schema, `${at}.*`, resolve));
    }
  }
  if ((ourTypes?.has('array') || ours.items) && ours.items && theirs.items) {
    errors.push(...conformanceErrors(ours.items as Schema, theirs.items as Schema, `${at}[]`, resolve));
  }
  return errors;
}

/** Resolves the project's own `#/components/schemas/…` references. */
export function resolverFor(document: Schema): (schema: Schema) => Schema {
  return (schema) => {
    let node = schema;
    for (let depth = 0; typeof node.$ref === 'string' && depth < 20; depth++) node = pointerGet(document, node.$ref);
    return node;
  };
}

/** The parameter names an operation of Zulip's declares (query, path and form body). */
export function referenceParameterNames(operation: Schema, root: Schema): Set<string> {
  const names = new Set<string>();
  for (const parameter of (operation.parameters as Schema[]) ?? []) {
    names.add(String((normalizeReference(parameter, root) as Schema).name));
  }
  const body = normalizeReference(operation.requestBody ?? {}, root) as Schema;
  for (const media of Object.values((body.content as Record<string, Schema>) ?? {})) {
    for (const name of Object.keys(((media.schema as Schema)?.properties as Schema) ?? {})) names.add(name);
  }
  return names;
}

let zulipAjv: import('ajv').default | undefined;
const zulipValidators = new Map<string, import('ajv').ValidateFunction>();

/**
 * The schema errors of `body` against what Zulip's own OpenAPI description
 * (`../shared/reference/zulip-openapi.yaml`) says `method route` answers with `status` (its
 * `allOf` branches merged, as Zulip's tests merge them, so unknown keys fail): [] when it
 * matches; undefined, checking nothing, when the reference is not there. Throws when Zulip
 * documents no such answer.
 */
export function zulipResponseErrors(method: string, route: string, status: number, body: unknown): string[] | undefined {
  const key = `${method.toLowerCase()} ${route} ${status}`;
  let validate = zulipValidators.get(key);
  if (!validate) {
    const root = loadZulipReference();
    if (!root) return undefined;
    const operation = (root.paths as Record<string, Record<string, Schema>>)[route]?.[method.toLowerCase()];
    if (!operation) throw new Error(`No operation ${method.toUpperCase()} ${route} in Zulip's OpenAPI description`);
    const documented = (operation.responses as Schema)[String(status)];
    if (!documented) throw new Error(`Zulip documents no ${status} answer for ${method.toUpperCase()} ${route}`);
    const response = normalizeReference(documented, root) as Schema;
    // Zulip's error answers are `oneOf` branches that overlap (an UNAUTHORIZED answer fits two);
    // its own validator takes the first that fits, as `anyOf` does.
    const schema = oneOfAsAnyOf((response.content as Record<string, Schema>)['application/json'].schema);
    if (!zulipAjv) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const Ajv = (require('ajv') as { default: typeof import('ajv').default }).default;
      zulipAjv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    }
    validate = zulipAjv.compile(schema);
    zulipValidators.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 30).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}

const oneOfAsAnyOf = (schema: unknown): Schema => {
  if (Array.isArray(schema)) return schema.map(oneOfAsAnyOf) as unknown as Schema;
  if (!schema || typeof schema !== 'object') return schema as Schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key === 'oneOf' ? 'anyOf' : key, oneOfAsAnyOf(value)]));
};

/**
 * Jest helper: fails with the schema errors when `body` is not what Zulip's own OpenAPI
 * description says `method route` answers with 200 (see zulipResponseErrors). Returns false,
 * checking nothing, when the reference is not there (said once on the console).
 */
export function expectMatchesZulipOpenApi(method: string, route: string, body: unknown): boolean {
  const errors = zulipResponseErrors(method, route, 200, body);
  if (!errors) {
    console.warn(`Zulip response schema NOT checked: no reference at ${ZULIP_REFERENCE_PATH}`);
    return false;
  }
  if (errors.length === 0) return true;
  throw new Error(`Response does not match Zulip's ${method.toUpperCase()} ${route}:\n${errors.join('\n')}`);
}

import type { z } from 'zod';
import { ZulipError, badRequest } from '../errors';
import type { DecodedParams, ParamSpecs } from './param-spec';

/** Raw request variables: the query string and the form body, flattened to text. */
export type RawParams = Record<string, string>;

export interface DecodeResult<S extends ParamSpecs> {
  values: DecodedParams<S>;
  /** Names the endpoint does not support, for `ignored_parameters_unsupported`. */
  ignored: string[];
}

/**
 * Decodes request variables by an endpoint's declaration, with Zulip's error texts
 * (zerver/lib/typed_endpoint.py): missing, confusing aliases, invalid JSON, wrong types.
 */
export function decodeParams<S extends ParamSpecs>(specs: S, raw: RawParams): DecodeResult<S> {
  // Assigned in declaration order: one shape per endpoint (see setValue).
  const values: Record<string, unknown> = {};
  const consumed: string[] = [];

  for (const declaration of declarationsOf(specs)) {
    const { name, candidates, spec } = declaration;
    let usedName: string | undefined;
    for (const candidate of candidates) {
      if (!Object.prototype.hasOwnProperty.call(raw, candidate)) continue;
      if (usedName !== undefined) {
        throw new ZulipError('REQUEST_CONFUSING_VAR', `Can't decide between '${usedName}' and '${candidate}' arguments`);
      }
      usedName = candidate;
    }
    if (usedName === undefined) {
      if (spec.isRequired()) {
        throw new ZulipError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });
      }
      setValue(values, name, spec.defaultValue);
      continue;
    }
    consumed.push(usedName);
    setValue(values, name, decodeRemembered(declaration, usedName, raw[usedName]));
  }

  const ignored: string[] = [];
  // Own keys only, listed at once: `for…in` over a prototype-less object (as the raw variables
  // are) walks V8's slow path.
  for (const key of Object.keys(raw)) if (!consumed.includes(key)) ignored.push(key);
  return { values: values as DecodedParams<S>, ignored: ignored.length > 1 ? ignored.sort() : ignored };
}

/** Sets a decoded value: a parameter declared as `__proto__` is defined, as assigning it would set a prototype. */
function setValue(values: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(values, name, { value, enumerable: true, writable: true, configurable: true });
  else values[name] = value;
}

/** An endpoint's parameters with the names each may come under, worked out once per declaration (GET /events decodes on every poll). */
type Declaration = {
  name: string;
  candidates: readonly string[];
  spec: ParamSpecs[string];
  /** Short texts already decoded to a scalar, and their values (a poll's queue id, `false`, small ids). */
  decoded: Map<string, unknown>;
};
const declarations = new WeakMap<ParamSpecs, readonly Declaration[]>();

function declarationsOf(specs: ParamSpecs): readonly Declaration[] {
  let known = declarations.get(specs);
  if (!known) {
    known = Object.entries(specs).map(([name, spec]) => ({ name, candidates: [name, ...spec.aliases], spec, decoded: new Map() }));
    declarations.set(specs, known);
  }
  return known;
}

/** Texts at most this long are remembered with their decoded value, at most this many per parameter. */
const REMEMBERED_TEXT = 64;
const REMEMBERED_VALUES = 1024;

/**
 * A value decoded as `decodeOne` does, remembered when it is a scalar (nothing can change it)
 * of a short text: a decode depends on the text and the declaration only, and an endpoint
 * called often (GET /events) sends the same few texts again and again. Refusals are not
 * remembered: their message names the alias that was used.
 */
function decodeRemembered(declaration: Declaration, usedName: string, text: string): unknown {
  const { spec, decoded } = declaration;
  if (text.length > REMEMBERED_TEXT) return decodeOne(usedName, spec.wire, spec.schema, text, spec.nullBytesAllowed);
  const known = decoded.get(text);
  if (known !== undefined || decoded.has(text)) return known;
  const value = decodeOne(usedName, spec.wire, spec.schema, text, spec.nullBytesAllowed);
  if (value === null || typeof value !== 'object') {
    if (decoded.size >= REMEMBERED_VALUES) decoded.clear();
    decoded.set(text, value);
  }
  return value;
}

function decodeOne(
  name: string,
  wire: 'string' | 'json',
  schema: z.ZodType<unknown>,
  text: string,
  nullBytesAllowed: boolean,
): unknown {
  let value: unknown = text;
  if (wire === 'json') {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest(`${name} is not valid JSON`);
    }
    // Zulip's parser (orjson) refuses nesting this deep as invalid JSON; so do we, before any
    // recursive walk (a schema's, ours) meets 10,000 levels.
    if (nestingDepth(value) > MAX_JSON_DEPTH) throw badRequest(`${name} is not valid JSON`);
    // A `\ud800` escape parses to a lone surrogate, which no UTF-8 text (nor Postgres) holds:
    // each becomes U+FFFD, as an invalid byte of a form body does.
    value = wellFormed(value);
  }
  const nulPath = nullBytesAllowed ? undefined : findNullByte(value);
  if (nulPath) throw badRequest(`${name}${formatPath(nulPath)} must not contain null bytes`);

  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(describeIssue(name, result.error.issues[0]));
}

/** orjson's limit: JSON nested deeper than this is not parsed. */
export const MAX_JSON_DEPTH = 1024;

/** How deep arrays and objects nest in a parsed JSON value (a scalar is 0), without recursion. */
function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (!value || typeof value !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const inner of Array.isArray(value) ? value : Object.values(value)) if (inner && typeof inner === 'object') stack.push([inner, depth + 1]);
  }
  return deepest;
}

/** The value with every string (and key) made well-formed UTF-16; the same value when all were. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = wellFormed(value[i]);
    return value;
  }
  const entries = Object.entries(value);
  if (entries.every(([key]) => wellFormedText(key) === key)) {
    for (const [key, inner] of entries) (value as Record<string, unknown>)[key] = wellFormed(inner);
    return value;
  }
  return Object.fromEntries(entries.map(([key, inner]) => [wellFormedText(key), wellFormed(inner)]));
}

/** A surrogate without its pair (matched by code unit, without the `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** String.prototype.toWellFormed (ES2024, beyond the project's TypeScript lib). */
const wellFormedText = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/** The path to the first string (or key) holding a NUL, depth first, without recursion. */
function findNullByte(root: unknown): PropertyKey[] | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        if (key.includes('\0')) return [...path, key];
        stack.push({ value: inner, path: [...path, key] });
      }
    }
  }
  return undefined;
}

const formatPath = (path: readonly PropertyKey[]): string =>
  path.map((part) => `[${JSON.stringify(typeof part === 'symbol' ? String(part) : part)}]`).join('');

const TYPE_TEXT: Record<string, string> = {
  int: 'is not an integer',
  number: 'is not an integer',
  boolean: 'is not a boolean',
  string: 'is not a string',
  array: 'is not a list',
  object: 'is not a dict',
};

/** Turns the first validation issue into Zulip's message for it. */
export function describeIssue(name: string, issue: z.core.$ZodIssue): string {
  const varName = `${name}${formatPath(issue.path)}`;
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_TEXT[issue.expected] ? `${varName} ${TYPE_TEXT[issue.expected]}` : `Invalid ${varName}`;
    case 'too_big':
      if (issue.origin === 'string') return `${varName} is too long (limit: ${issue.maximum} characters)`;
      if (issue.origin === 'array') return `${varName} is too long (limit: ${issue.maximum} items)`;
      return `${varName} is too large`;
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? `${varName} cannot be blank` : `${varName} is too short.`;
      if (issue.origin === 'array') return `${varName} is too short.`;
      return `${varName} is too small`;
    case 'unrecognized_keys':
      return `Argument "${issue.keys[0]}" at ${varName} is unexpected`;
    case 'custom':
      return issue.message;
    default:
      return `Invalid ${varName}`;
  }
}

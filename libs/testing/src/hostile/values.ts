import fc from 'fast-check';
import type { ParamSpec } from '@teamchat/zulip';

/**
 * Values for the hostile-input test (apps/gateway/test/hostile-input.spec.ts): what an endpoint's
 * declaration accepts, generated from its zod schema with fast-check, and the hostile variants of
 * it. A value travels as a list of pieces: text (percent-encoded from its UTF-8 on the wire) and
 * raw bytes (written as they are, for invalid UTF-8 and lone surrogates, which text cannot carry).
 */

/** Bytes written as given, already percent-encoded (`%FF`, `%C3%28`, `%ED%A0%80`). */
export class RawBytes {
  constructor(readonly percent: string) {}
}

/** JSON text written as it is inside a JSON document: numbers JavaScript cannot hold (`1e309`, `-0`, `2^63`). */
export class RawJson {
  constructor(readonly json: string) {}
}

/** A string made of text and raw bytes (`"a%FFb"` inside JSON, or a whole plain-text parameter). */
export class RawString {
  constructor(readonly pieces: Piece[]) {}
}

export type Piece = string | RawBytes;

/** Where a parameter travels: the URL (a path segment or the query string: 16 KiB of headers at most) or a body. */
export type Place = 'url' | 'body';

/** Ids and names of the fixtures, so generated values name things that exist. */
export interface Pools {
  ints(hint: string): number[];
  strings(hint: string): string[];
}

export interface ParamInfo {
  name: string;
  spec: ParamSpec<unknown>;
  place: Place;
  isPath: boolean;
  /**
   * Names something that must exist: a path segment, a required parameter of a GET, or a required
   * parameter of an endpoint that authenticates by its parameters (auth `realm`: a username).
   */
  lookup: boolean;
}

// ---------------------------------------------------------------------------------------------
// Encoding

/**
 * Percent-encodes a string's UTF-8 bytes as encodeURIComponent does (a lone surrogate, which it
 * refuses, becomes U+FFFD's bytes, as Buffer writes it); `keepSlash` leaves `/` as it is.
 */
export function percentEncode(text: string, keepSlash = false): string {
  let out: string;
  try {
    out = encodeURIComponent(text);
  } catch {
    out = [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  }
  return keepSlash ? out.replace(/%2F/g, '/') : out;
}

/** A value's pieces, percent-encoded (a form body, a query string, a path segment). */
export const encodePieces = (pieces: Piece[], keepSlash = false): string =>
  pieces.map((piece) => (typeof piece === 'string' ? percentEncode(piece, keepSlash) : piece.percent)).join('');

/** A value's pieces as bytes (a multipart field). */
export const piecesToBuffer = (pieces: Piece[]): Buffer =>
  Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(decodePercent(piece.percent)))));

function decodePercent(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return bytes;
}

/** The pieces of a value written as JSON (raw numbers and raw bytes kept as they are). */
export function jsonPieces(value: unknown): Piece[] {
  const out: Piece[] = [];
  const write = (v: unknown): void => {
    if (v instanceof RawJson) out.push(v.json);
    else if (v instanceof RawString) {
      out.push('"');
      for (const piece of v.pieces) out.push(typeof piece === 'string' ? JSON.stringify(piece).slice(1, -1) : piece);
      out.push('"');
    } else if (Array.isArray(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(',');
        write(item);
      });
      out.push(']');
    } else if (v && typeof v === 'object') {
      out.push('{');
      Object.entries(v).forEach(([key, item], i) => {
        out.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
        write(item);
      });
      out.push('}');
    } else if (v === undefined) out.push('null');
    else out.push(JSON.stringify(v));
  };
  write(value);
  // Merge adjacent text, so encoding and summaries see runs.
  const merged: Piece[] = [];
  for (const piece of out) {
    const last = merged[merged.length - 1];
    if (typeof piece === 'string' && typeof last === 'string') merged[merged.length - 1] = last + piece;
    else merged.push(piece);
  }
  return merged;
}

/** A value as its parameter's wire form: plain text as it is, anything else as JSON. */
export function wirePieces(wire: 'string' | 'json', value: unknown): Piece[] {
  if (wire === 'string') {
    if (typeof value === 'string') return [value];
    if (value instanceof RawString) return value.pieces;
  }
  return jsonPieces(value);
}

/** A short, printable description of a value for the failure report. */
export function describePieces(pieces: Piece[], max = 90): string {
  const text = pieces.map((piece) => (typeof piece === 'string' ? piece : `⟨${piece.percent}⟩`)).join('');
  const printable = JSON.stringify(text).slice(1, -1);
  return printable.length <= max ? printable : `${printable.slice(0, max)}… (${text.length} chars)`;
}

// ---------------------------------------------------------------------------------------------
// Values from a zod schema

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Def = { type: string; [key: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Def[] => ((def.checks ?? []) as { _zod: { def: Def } }[]).map((check) => check._zod.def);

/** Leaf overrides: every string (or integer) leaf of a structure takes a hostile value instead. */
export interface LeafOverrides {
  str?: fc.Arbitrary<unknown>;
  int?: fc.Arbitrary<unknown>;
}

/** Which kinds of leaves a schema has, so only modes that can reach something are tried. */
export function leavesOf(schema: unknown, depth = 0): { str: boolean; int: boolean } {
  const found = { str: false, int: false };
  if (depth > 8) return found;
  const def = defOf(schema);
  const merge = (inner: unknown) => {
    const got = leavesOf(inner, depth + 1);
    found.str ||= got.str;
    found.int ||= got.int;
  };
  switch (def.type) {
    case 'string':
      found.str = true;
      break;
    case 'number':
      found.int = true;
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
      merge(def.innerType);
      break;
    case 'pipe':
      merge(def.in);
      break;
    case 'lazy':
      merge(def.getter());
      break;
    case 'array':
      merge(def.element);
      break;
    case 'tuple':
      for (const item of def.items) merge(item);
      if (def.rest) merge(def.rest);
      break;
    case 'union':
      for (const option of def.options) merge(option);
      break;
    case 'object':
      for (const inner of Object.values(def.shape as Record<string, unknown>)) merge(inner);
      break;
    case 'record':
      merge(def.keyType);
      merge(def.valueType);
      break;
  }
  return found;
}

/**
 * An arbitrary of the values a schema accepts (as far as its kind, bounds and shape say; refinements
 * are not read), with ids and names from the fixtures where the parameter's or key's name hints at
 * them, and with the overrides put in place of its string or integer leaves.
 */
export function schemaArbitrary(schema: unknown, hint: string, pools: Pools, leaves: LeafOverrides = {}, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const def = defOf(schema);
  const checks = checksOf(def);
  const next = (inner: unknown, innerHint = hint) => schemaArbitrary(inner, innerHint, pools, leaves, depth + 1);
  /** With an override, a part that can hold an overridden leaf is always taken (no empty list, no null, no other branch). */
  const reaches = (inner: unknown) => {
    const found = leavesOf(inner, depth + 1);
    return (leaves.str !== undefined && found.str) || (leaves.int !== undefined && found.int);
  };
  switch (def.type) {
    case 'string': {
      if (leaves.str) return leaves.str;
      const min = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum as number));
      const maxes = checks.filter((c) => c.check === 'max_length').map((c) => c.maximum as number);
      const max = Math.max(min, Math.min(12, ...maxes));
      const known = pools.strings(hint).filter((s) => s.length >= min && (maxes.length === 0 || s.length <= Math.min(...maxes)));
      const random = fc.string({ minLength: min, maxLength: max });
      return known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 6 }, { arbitrary: random, weight: 1 }) : random;
    }
    case 'number': {
      if (leaves.int) return leaves.int;
      let low = -3;
      let high = 60;
      for (const c of checks) {
        if (c.check === 'greater_than') low = Math.max(low, Math.ceil(c.value as number) + (c.inclusive ? 0 : 1));
        if (c.check === 'less_than') high = Math.min(high, Math.floor(c.value as number) - (c.inclusive ? 0 : 1));
      }
      if (high < low) high = low;
      const known = pools.ints(hint).filter((n) => n >= low);
      const random = fc.integer({ min: low, max: high });
      return known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 6 }, { arbitrary: random, weight: 1 }) : random;
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'null':
      return fc.constant(null);
    case 'nullable':
      if (reaches(def.innerType)) return next(def.innerType);
      return fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: next(def.innerType), weight: 4 });
    case 'optional':
    case 'default':
    case 'readonly':
    case 'catch':
      return next(def.innerType);
    case 'pipe':
      return next(def.in);
    case 'lazy':
      return next(def.getter());
    case 'array': {
      const min = Math.max(reaches(def.element) ? 1 : 0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum as number));
      return fc.array(next(def.element), { minLength: min, maxLength: Math.max(min, 3) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map((item) => next(item)));
    case 'union': {
      const options = def.options as unknown[];
      const reaching = options.filter(reaches);
      return fc.oneof(...(reaching.length > 0 ? reaching : options).map((option) => next(option)));
    }
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, inner] of Object.entries(shape)) {
        model[key] = next(inner, key);
        if (defOf(inner).type !== 'optional' || reaches(inner)) requiredKeys.push(key);
      }
      return fc.record(model, { requiredKeys });
    }
    case 'record':
      return fc.dictionary(next(def.keyType).map(String), next(def.valueType), { minKeys: reaches(def.valueType) || reaches(def.keyType) ? 1 : 0, maxKeys: 3 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The ordinary values of a parameter, on the wire. */
export const validWire = (p: ParamInfo, pools: Pools): fc.Arbitrary<Piece[]> =>
  schemaArbitrary(p.spec.schema, p.name, pools).map((value) => wirePieces(p.spec.wire, value));

// ---------------------------------------------------------------------------------------------
// Hostile values

/** One kind of hostile value: which parameters it applies to, and its values for one of them. */
export interface HostileMode {
  kind: string;
  applies(p: ParamInfo): boolean;
  values(p: ParamInfo, pools: Pools): fc.Arbitrary<Piece[]>;
  /**
   * The parameters this kind is tried on each by itself (one request apiece), where a bug is
   * likely to hide in one parameter of many; the others it applies to share one request.
   */
  eachOf?(p: ParamInfo): boolean;
}

/** Built once per size: the large texts are the same in every request that sends them. */
function memo(build: (n: number) => string): (n: number) => string {
  const built = new Map<number, string>();
  return (n) => {
    if (!built.has(n)) built.set(n, build(n));
    return built.get(n)!;
  };
}
const deepArray = memo((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);
const deepObject = memo((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const wideArray = memo((n) => `[${new Array(n).fill('1').join(',')}]`);
const wideStrings = memo((n) => `[${new Array(n).fill('"x"').join(',')}]`);
const wideObject = memo((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`);

/** Sizes: a URL must stay under Node's 16 KiB of headers for the request to reach the server at all. */
const size = (p: ParamInfo, body: number, url: number) => (p.place === 'body' ? body : url);

const isJson = (p: ParamInfo) => p.spec.wire === 'json';
const hasStr = (p: ParamInfo) => leavesOf(p.spec.schema).str;
const hasInt = (p: ParamInfo) => leavesOf(p.spec.schema).int;

/**
 * A mode that puts `leaf` in place of every string leaf: the whole value of a plain-text
 * parameter, or each string inside a JSON one's valid structure (a list of names, an object's
 * fields), so the hostile text gets past the structure's checks to the code behind them.
 */
function stringLeafMode(kind: string, leaf: (p: ParamInfo, json: boolean) => fc.Arbitrary<unknown>, only?: 'json' | 'string'): HostileMode {
  return {
    kind,
    applies: (p) => hasStr(p) && (only === undefined || (only === 'json') === isJson(p)),
    values: (p, pools) =>
      isJson(p)
        ? schemaArbitrary(p.spec.schema, p.name, pools, { str: leaf(p, true) }).map((v) => jsonPieces(v))
        : leaf(p, false).map((v) => wirePieces('string', v)),
  };
}

function intLeafMode(kind: string, leaf: fc.Arbitrary<unknown>): HostileMode {
  return {
    kind,
    applies: (p) => isJson(p) && hasInt(p),
    values: (p, pools) => schemaArbitrary(p.spec.schema, p.name, pools, { int: leaf }).map((v) => jsonPieces(v)),
  };
}

function wholeMode(kind: string, applies: (p: ParamInfo) => boolean, text: (p: ParamInfo) => fc.Arbitrary<Piece[]>): HostileMode {
  return { kind, applies, values: (p) => text(p) };
}

const texts = (...values: string[]) => fc.constantFrom(...values).map((t): Piece[] => [t]);

/** A name of a fixture with one character made a LIKE wildcard: it names nothing that exists. */
export function wildcardNames(known: string[]): string[] {
  const lower = new Set(known.map((name) => name.toLowerCase()));
  const out: string[] = [];
  for (const name of known) {
    if (name.length < 3) continue;
    for (const candidate of [`${name.slice(0, 1)}_${name.slice(2)}`, `${name.slice(0, 2)}%`, `%${name.slice(-2)}`, `${name.slice(0, -1)}_`]) {
      if (!lower.has(candidate.toLowerCase())) out.push(candidate);
    }
  }
  return out;
}

export const HOSTILE_MODES: HostileMode[] = [
  // NUL: raw in plain text, as the JSON escape inside JSON strings, raw inside a JSON string.
  stringLeafMode('nul-raw', () => fc.constantFrom('\u0000', 'a\u0000b'), 'string'),
  stringLeafMode('nul-json-escape', () => fc.constantFrom('\u0000', 'a\u0000b'), 'json'),
  stringLeafMode('nul-raw-in-json', () => fc.constant(new RawString(['a', new RawBytes('%00'), 'b'])), 'json'),
  // A JSON list in any parameter, plain-text ones included (`to` carries a list of addresses as text).
  {
    ...wholeMode('nul-json-list', () => true, (p) => (isJson(p) ? texts('["\\u0000"]', '["a\\u0000b"]', '[1,"a\\u0000"]', '[{"a":"\\u0000"}]') : texts('["a\\u0000b"]'))),
    eachOf: (p) => !isJson(p),
  },
  wholeMode('nul-json-key', () => true, () => texts('{"\\u0000":1}', '[{"\\u0000":"x"}]')),
  // Invalid UTF-8 and lone surrogates.
  stringLeafMode('invalid-utf8', () => fc.constantFrom(new RawString(['a', new RawBytes('%C3%28')]), new RawString([new RawBytes('%FF'), 'b']))),
  wholeMode('invalid-utf8-whole', () => true, () => fc.constantFrom<Piece[]>([new RawBytes('%C3%28')], [new RawBytes('%FF%FE')], ['[', new RawBytes('%FF'), ']'])),
  stringLeafMode('lone-surrogate', (_p, json) =>
    json ? fc.constantFrom('\ud800', 'x\udc00y') : fc.constantFrom(new RawString([new RawBytes('%ED%A0%80')]), new RawString(['x', new RawBytes('%ED%B0%80')])),
  ),
  // LIKE wildcards: alone, and in place of a character of a name that exists (which then names nothing).
  stringLeafMode('like-wildcard', () => fc.constantFrom('_', '%', '\\', '%%', '_%_', 'a\\', '\\%', '%\\', '[%]', "'")),
  {
    kind: 'like-wildcard-name',
    applies: (p) => p.lookup && !isJson(p) && hasStr(p),
    eachOf: () => true,
    values: (p, pools) => {
      const names = wildcardNames(pools.strings(p.name));
      const leaf = names.length > 0 ? fc.constantFrom(...names) : fc.constantFrom('_', '%');
      return leaf.map((v): Piece[] => [v]);
    },
  },
  // Sizes.
  // In a URL every string leaf of a structure gets one (a narrow has several): each stays small enough for all to fit.
  stringLeafMode('long-string', (p) => fc.constantFrom('x'.repeat(size(p, 100_000, 1_200)), '€'.repeat(size(p, 40_000, 120)))),
  stringLeafMode('empty-string', () => fc.constantFrom('', ' ', '\u200b')),
  stringLeafMode('odd-unicode', () => fc.constantFrom('\u202e\ufeff', 'e\u0301\u0301\u0301', '😀'.repeat(3), '\u0001\u001f\u007f')),
  wholeMode('empty', () => true, () => texts('')),
  wholeMode('deep-array', isJson, (p) => texts(deepArray(size(p, 10_000, 1_500)))),
  wholeMode('deep-object', isJson, (p) => texts(deepObject(size(p, 10_000, 600)))),
  wholeMode('wide-array', isJson, (p) => texts(wideArray(size(p, 100_000, 1_500)), wideStrings(size(p, 50_000, 700)))),
  wholeMode('wide-object', isJson, (p) => texts(wideObject(size(p, 20_000, 250)))),
  // Numbers.
  // Every integer parameter by itself: a 32-bit column behind any one of them fails only there.
  { ...intLeafMode('int-2^31', fc.constant(2 ** 31)), eachOf: () => true },
  intLeafMode('int-2^53', fc.constantFrom(2 ** 53, new RawJson('9007199254740993'), -(2 ** 53))),
  intLeafMode('int-2^63', fc.constantFrom(new RawJson('9223372036854775808'), new RawJson('-9223372036854775809'), new RawJson('1' + '0'.repeat(40)))),
  intLeafMode('1e309', fc.constantFrom(new RawJson('1e309'), new RawJson('-1e309'))),
  intLeafMode('negative-zero', fc.constant(new RawJson('-0'))),
  intLeafMode('float-for-int', fc.constantFrom(1.5, 0.1, new RawJson('1e-7'), new RawJson('2.0'))),
  intLeafMode('negative-int', fc.constantFrom(-1, -(2 ** 31), -(2 ** 31) - 1)),
  wholeMode('huge-number-text', (p) => !isJson(p), () => texts('2147483648', '[2147483648]', '9223372036854775808', '[1e309]', '-0', '1.5', '[-2147483649]')),
  // Wrong types and broken JSON.
  wholeMode('wrong-type', () => true, (p) =>
    isJson(p)
      ? texts('"str"', '{}', '[]', 'null', 'true', '1', '[[]]', '[{}]', '"1"', '[null]', '{"a":[1]}')
      : texts('[1,2]', '{"a":1}', 'null', '12345678901234567890', 'true'),
  ),
  wholeMode('invalid-json', isJson, () => texts('{', '[1,', 'NaN', "'x'", '01', '--1', '"\\x"', '[1]]', 'undefined', '"\\ud800')),
  wholeMode('proto-key', isJson, () => texts('{"__proto__":{"polluted":1}}', '[{"__proto__":null}]', '{"constructor":{"prototype":{"x":1}}}')),
];

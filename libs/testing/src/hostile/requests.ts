import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { ParamSpec } from '@teamchat/zulip';
import {
  HOSTILE_MODES,
  RawBytes,
  describePieces,
  encodePieces,
  piecesToBuffer,
  validWire,
  type ParamInfo,
  type Piece,
  type Pools,
} from './values';

/** What the test needs of an endpoint's declaration (libs/contracts' Endpoint). */
export interface EndpointDecl {
  method: string;
  path: string;
  pathParams: readonly string[];
  restPathParam?: string;
  auth: string;
  params: Record<string, ParamSpec<unknown>>;
}

/** One request's parameters: path segments and fields (name and value as pieces), and what is hostile in it. */
export interface Plan {
  /** `generated` (values the declaration accepts, from the fixtures where they fit), or the hostile kind. */
  kind: string;
  /** The parameter the hostile value is in. */
  target?: string;
  path: Record<string, Piece[]>;
  fields: { name: Piece[]; value: Piece[] }[];
}

export const endpointLabel = (e: EndpointDecl) => `${e.method.toUpperCase()} ${e.path}`;

export function paramInfos(e: EndpointDecl): ParamInfo[] {
  return Object.entries(e.params).map(([name, spec]) => {
    const isPath = e.pathParams.includes(name);
    const lookup = isPath || ((e.method === 'get' || e.auth === 'realm') && spec.isRequired());
    return { name, spec, isPath, place: isPath || e.method === 'get' ? 'url' : 'body', lookup };
  });
}

/** Values the declaration accepts: every path and required parameter, some optional ones. */
function baseArbitrary(e: EndpointDecl, pools: Pools): fc.Arbitrary<Record<string, Piece[] | undefined>> {
  const model: Record<string, fc.Arbitrary<Piece[] | undefined>> = {};
  for (const p of paramInfos(e)) {
    const valid = validWire(p, pools);
    model[p.name] = p.isPath || p.spec.isRequired() ? valid : fc.option(valid, { nil: undefined, freq: 2 });
  }
  return fc.record(model);
}

function toPlan(e: EndpointDecl, kind: string, values: Record<string, Piece[] | undefined>, target?: string, extra: Plan['fields'] = []): Plan {
  const path: Record<string, Piece[]> = {};
  const fields: Plan['fields'] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (e.pathParams.includes(name)) path[name] = value;
    else fields.push({ name: [name], value });
  }
  return { kind, target, path, fields: [...fields, ...extra] };
}

/** A mode about the request's parameters as a whole rather than one value. */
interface RequestMode {
  kind: string;
  applies(e: EndpointDecl): boolean;
  plan(e: EndpointDecl, base: Record<string, Piece[] | undefined>): fc.Arbitrary<Plan>;
}

const optionalOrRequired = (e: EndpointDecl) => paramInfos(e).filter((p) => !p.isPath);

const REQUEST_MODES: RequestMode[] = [
  {
    kind: 'absent-required',
    applies: (e) => paramInfos(e).some((p) => !p.isPath && p.spec.isRequired()),
    plan: (e, base) =>
      fc.constantFrom(...paramInfos(e).filter((p) => !p.isPath && p.spec.isRequired())).map((p) => toPlan(e, 'absent-required', { ...base, [p.name]: undefined }, p.name)),
  },
  {
    kind: 'duplicate-param',
    applies: (e) => optionalOrRequired(e).length > 0,
    plan: (e, base) =>
      fc.constantFrom(...optionalOrRequired(e)).map((p) => {
        const plan = toPlan(e, 'duplicate-param', { ...base, [p.name]: base[p.name] ?? ['1'] }, p.name);
        plan.fields.push({ name: [p.name], value: ['[]'] }, { name: [`${p.name}[]`], value: ['1'] });
        return plan;
      }),
  },
  {
    kind: 'alias-both',
    applies: (e) => paramInfos(e).some((p) => p.spec.aliases.length > 0),
    plan: (e, base) =>
      fc.constantFrom(...paramInfos(e).filter((p) => p.spec.aliases.length > 0)).map((p) => {
        const value = base[p.name] ?? ['x'];
        return toPlan(e, 'alias-both', { ...base, [p.name]: value }, p.name, p.spec.aliases.map((alias) => ({ name: [alias], value: ['other'] })));
      }),
  },
  {
    kind: 'hostile-param-name',
    applies: () => true,
    plan: (e, base) =>
      fc
        .constantFrom<Piece[]>(['__proto__'], ['constructor'], ['hasOwnProperty'], ['toString'], [new RawBytes('%FF')], ['a\u0000b'], ['x'.repeat(2000)], ['a[b]'], ['a[__proto__][x]'])
        .map((name) => toPlan(e, 'hostile-param-name', base, describePieces(name, 20), [{ name, value: ['1'] }])),
  },
  {
    kind: 'too-many-params',
    applies: () => true,
    plan: (e, base) => fc.constant(toPlan(e, 'too-many-params', base, undefined, Array.from({ length: 1001 }, (_, i) => ({ name: [`p${i}`], value: ['1'] })))),
  },
];

/** Every kind a request of this endpoint can carry (`key` tells apart a kind's per-parameter entries), and a generator of such requests. */
export function plansFor(e: EndpointDecl, pools: Pools): { kind: string; key: string; arbitrary: fc.Arbitrary<Plan> }[] {
  const base = baseArbitrary(e, pools);
  const infos = paramInfos(e);
  const out: { kind: string; key: string; arbitrary: fc.Arbitrary<Plan> }[] = [
    { kind: 'generated', key: 'generated', arbitrary: base.map((values) => toPlan(e, 'generated', values)) },
  ];
  const hostile = (mode: (typeof HOSTILE_MODES)[number], targets: ParamInfo[]) =>
    fc
      .tuple(base, fc.constantFrom(...targets))
      .chain(([values, p]) => mode.values(p, pools).map((value) => toPlan(e, mode.kind, { ...values, [p.name]: value }, p.name)));
  for (const mode of HOSTILE_MODES) {
    const targets = infos.filter((p) => mode.applies(p));
    const each = targets.filter((p) => mode.eachOf?.(p));
    const shared = targets.filter((p) => !mode.eachOf?.(p));
    for (const p of each) out.push({ kind: mode.kind, key: `${mode.kind}@${p.name}`, arbitrary: hostile(mode, [p]) });
    if (shared.length > 0) out.push({ kind: mode.kind, key: mode.kind, arbitrary: hostile(mode, shared) });
  }
  for (const mode of REQUEST_MODES) {
    if (!mode.applies(e)) continue;
    out.push({ kind: mode.kind, key: mode.kind, arbitrary: base.chain((values) => mode.plan(e, values)) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// From a plan to HTTP

export interface HttpShape {
  method: string;
  /** Path and query string, percent-encoded. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent in these chunks with Transfer-Encoding: chunked instead of one body. */
  chunks?: Buffer[];
}

/** The request path of a plan (below `prefix`), each segment percent-encoded. */
export function planPath(e: EndpointDecl, plan: Plan, prefix = '/api/v1'): string {
  return prefix + e.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodePieces(plan.path[name] ?? [''], name === e.restPathParam));
}

export const formText = (fields: Plan['fields']): string => fields.map((f) => `${encodePieces(f.name)}=${encodePieces(f.value)}`).join('&');

/** The ordinary request: parameters in the query string of a GET, in a form body otherwise. */
export function planRequest(e: EndpointDecl, plan: Plan, path = planPath(e, plan)): HttpShape {
  const method = e.method.toUpperCase();
  const form = formText(plan.fields);
  if (method === 'GET') return { method, url: form ? `${path}?${form}` : path, headers: {} };
  return { method, url: path, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(form) };
}

function multipartBody(boundary: string, parts: { name: Buffer; value: Buffer; filename?: string }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), part.name, Buffer.from('"'));
    if (part.filename) chunks.push(Buffer.from(`; filename="${part.filename}"\r\nContent-Type: text/plain`));
    chunks.push(Buffer.from('\r\n\r\n'), part.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** The body encodings tried on every endpoint: broken multipart, compression that is not, wrong types. */
export const ENCODINGS = [
  'multipart-valid',
  'multipart-with-file',
  'multipart-no-boundary',
  'multipart-empty-boundary',
  'multipart-truncated',
  'multipart-1mb-field',
  'multipart-over-limit-field',
  'gzip-not-gzip',
  'gzip-bomb',
  'deflate-not-deflate',
  'encoding-unknown',
  'content-type-json',
  'content-type-text',
  'content-type-missing',
  'content-type-garbage',
  'charset-utf16',
  'chunked-form',
  'form-invalid-utf8-name',
] as const;
export type Encoding = (typeof ENCODINGS)[number];

const MB = 1_000_000;
const MIB = 1024 * 1024;
let bomb: Buffer | undefined;

/** A request with the plan's parameters in the body, encoded (or misencoded) as `encoding` says. */
export function encodedRequest(e: EndpointDecl, plan: Plan, encoding: Encoding): HttpShape {
  const method = e.method.toUpperCase();
  const url = planPath(e, plan);
  const form = Buffer.from(formText(plan.fields));
  const parts = plan.fields.map((f) => ({ name: piecesToBuffer(f.name), value: piecesToBuffer(f.value) }));
  const boundary = 'hostileBoundary7MA4YWxkTrZu0gW';
  const multipart = (type: string, body: Buffer): HttpShape => ({ method, url, headers: { 'Content-Type': type }, body });
  const bigField = (bytes: number) => {
    const target = plan.fields.find((f) => typeof f.name[0] === 'string' && e.params[f.name[0] as string]?.wire === 'string');
    const name = target ? piecesToBuffer(target.name) : Buffer.from('content');
    return [...parts.filter((p) => !p.name.equals(name)), { name, value: Buffer.alloc(bytes, 'x') }];
  };
  switch (encoding) {
    case 'multipart-valid':
      return multipart(`multipart/form-data; boundary=${boundary}`, multipartBody(boundary, parts));
    case 'multipart-with-file':
      return multipart(`multipart/form-data; boundary=${boundary}`, multipartBody(boundary, [...parts, { name: Buffer.from('file'), value: Buffer.from('hello'), filename: 'a.txt' }]));
    case 'multipart-no-boundary':
      return multipart('multipart/form-data', multipartBody(boundary, parts));
    case 'multipart-empty-boundary':
      return multipart('multipart/form-data; boundary=', multipartBody('', parts));
    case 'multipart-truncated': {
      // The body ends inside a part (no closing boundary), with a Content-Length that says so.
      const whole = multipartBody(boundary, [...parts, { name: Buffer.from('file'), value: Buffer.alloc(2000, 'y'), filename: 'cut.txt' }]);
      return multipart(`multipart/form-data; boundary=${boundary}`, whole.subarray(0, whole.length - 1000));
    }
    case 'multipart-1mb-field':
      return multipart(`multipart/form-data; boundary=${boundary}`, multipartBody(boundary, bigField(MB)));
    case 'multipart-over-limit-field':
      return multipart(`multipart/form-data; boundary=${boundary}`, multipartBody(boundary, bigField(MIB + 1)));
    case 'gzip-not-gzip':
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: form };
    case 'gzip-bomb':
      bomb ??= gzipSync(Buffer.alloc(64 * MIB, 'a'));
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: bomb };
    case 'deflate-not-deflate':
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'deflate' }, body: Buffer.from('not deflate at all') };
    case 'encoding-unknown':
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'x-hostile, gzip' }, body: form };
    case 'content-type-json': {
      const object = Object.fromEntries(plan.fields.map((f) => [piecesToBuffer(f.name).toString(), piecesToBuffer(f.value).toString()]));
      return { method, url, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(object)) };
    }
    case 'content-type-text':
      return { method, url, headers: { 'Content-Type': 'text/plain' }, body: form };
    case 'content-type-missing':
      return { method, url, headers: {}, body: form };
    case 'content-type-garbage':
      return { method, url, headers: { 'Content-Type': ';;=;/\\"' }, body: form };
    case 'charset-utf16':
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-16' }, body: form };
    case 'chunked-form': {
      const half = Math.floor(form.length / 2);
      return { method, url, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, chunks: [form.subarray(0, half), form.subarray(half)] };
    }
    case 'form-invalid-utf8-name':
      return {
        method,
        url,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.concat([form, Buffer.from(form.length > 0 ? '&' : ''), Buffer.from('%FF%FE=%C3%28&x%00y=1')]),
      };
  }
}

/** A one-line description of a request for the report. */
export function describeRequest(shape: HttpShape, max = 160): string {
  const url = shape.url.length > max ? `${shape.url.slice(0, max)}… (${shape.url.length} chars)` : shape.url;
  const length = shape.body?.length ?? shape.chunks?.reduce((n, c) => n + c.length, 0);
  const body =
    shape.body && shape.body.length > 0
      ? ` body=${JSON.stringify(shape.body.subarray(0, max).toString('latin1'))}${shape.body.length > max ? `…(${length} bytes)` : ''}`
      : '';
  const type = shape.headers['Content-Type'] ? ` [${shape.headers['Content-Type']}]` : '';
  const encoding = shape.headers['Content-Encoding'] ? ` [Content-Encoding: ${shape.headers['Content-Encoding']}]` : '';
  return `${shape.method} ${url}${type}${encoding}${body}`;
}

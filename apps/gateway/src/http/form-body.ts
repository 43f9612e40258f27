import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import qs from 'qs';

/** At most this many parameters in a body, as body-parser's parameterLimit (413 beyond). */
export const FORM_PARAMETER_LIMIT = 1000;

/**
 * What body-parser's `urlencoded({ extended: false })` (body-parser 2) hands qs: names are taken
 * whole (`a[b]` is the name "a[b]"), a repeated name gathers its values in an array.
 */
export const QS_OPTIONS = (parameterCount: number): qs.IParseOptions & { strictDepth: boolean } => ({
  allowPrototypes: true,
  arrayLimit: parameterCount,
  depth: 0,
  charset: 'utf-8',
  parameterLimit: FORM_PARAMETER_LIMIT,
  strictDepth: true,
});

/**
 * A form-encoded body's parameters exactly as body-parser and qs give them. A body without
 * brackets (`[`, `]`, or their escapes), as nearly every API call's is, is split here in one pass
 * by qs's rules: `&`-separated, `+` is a space, percent-escapes decoded where they decode (left
 * as they are where not), a part without `=` is a name with an empty value, empty names and
 * `__proto__` left out. Any other body goes to qs itself.
 */
export function parseForm(text: string): Record<string, string | string[]> {
  if (text.length === 0) return {};
  if (/[[\]]|%5[bd]/i.test(text)) return qs.parse(text, QS_OPTIONS(parameterCount(text))) as Record<string, string | string[]>;
  const result: Record<string, string | string[]> = {};
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    const name = decode(at < 0 ? part : part.slice(0, at));
    if (name === '' || name === '__proto__') continue;
    const value = at < 0 ? '' : decode(part.slice(at + 1));
    const existing = Object.hasOwn(result, name) ? result[name] : undefined;
    result[name] = existing === undefined ? value : ([] as string[]).concat(existing, value);
  }
  return result;
}

/** How many parameters body-parser counts (one more than the `&`s). */
export const parameterCount = (text: string): number => text.split('&').length;

function decode(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The Content-Length of a form body this handler reads itself, or null to leave the request to body-parser. */
function plainFormLength(req: IncomingMessage, maxBodyBytes: number): number | null {
  const { headers } = req;
  if (headers['transfer-encoding'] !== undefined) return null;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return null;
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,9}$/.test(declared)) return null;
  const length = Number(declared);
  if (length > maxBodyBytes) return null; // body-parser's 413
  const type = headers['content-type'];
  if (type === undefined) return null;
  const [mediaType, ...parameters] = type.toLowerCase().split(';');
  if (mediaType.trim() !== 'application/x-www-form-urlencoded') return null;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=').map((piece) => piece.trim());
    if (name !== 'charset' || (value !== 'utf-8' && value !== '"utf-8"')) return null;
  }
  return length;
}

/** An error body-parser would have raised, as the gateway's error envelope reads it. */
const bodyError = (status: number, message: string, type: string) => Object.assign(new Error(message), { status, statusCode: status, expose: true, type });

/**
 * The form bodies nearly every API call sends (UTF-8, a Content-Length within the limit, not
 * compressed), read and parsed here: body-parser's stream reading and qs cost about as much
 * gateway CPU as a send's own work. Everything else (other types, charsets, encodings, chunked
 * or oversized bodies) passes on to body-parser unread, which skips a body already read.
 */
export function plainFormBodies(maxBodyBytes: number): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const length = plainFormLength(req, maxBodyBytes);
    if (length === null) return next();
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      next(error);
    };
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    req.once('aborted', () => settle(bodyError(400, 'request aborted', 'request.aborted')));
    req.once('error', () => settle(bodyError(400, 'request aborted', 'request.aborted')));
    req.once('end', () => {
      if (received !== length) return settle(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
      const text = Buffer.concat(chunks, received).toString('utf8');
      if (text.length > 0 && parameterCount(text) > FORM_PARAMETER_LIMIT) return settle(bodyError(413, 'too many parameters', 'parameters.too.many'));
      req.body = parseForm(text);
      settle();
    });
  };
}

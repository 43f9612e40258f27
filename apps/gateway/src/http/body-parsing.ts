import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import { FORM_PARAMETER_LIMIT, plainFormBodies } from './form-body';

/**
 * Zulip's request encodings: form-urlencoded bodies, and multipart form fields for clients
 * that send only that. Query strings and bodies are parsed flat (`a[b]=1` is the name "a[b]");
 * repeated names keep their last value later, as Django does. Returns the body parsers, in the
 * order they run, for FrontDoor to run on the requests it serves ahead of Express.
 */
/** An error the envelope writer reads as body-parser's own (see bodyParserError). */
const malformed = () => Object.assign(new Error('Malformed request body'), { status: 400, expose: true, type: 'multipart.malformed' });
const tooLarge = () => Object.assign(new Error('Request body too large'), { code: 'LIMIT_BODY_SIZE' });

/** The multipart boundary of a Content-Type, or '' when there is none (busboy would read nothing). */
function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? '') : '';
}

/**
 * Holds a multipart body to `maxBytes` in all: multer limits each field, not their sum, so
 * a thousand fields of a megabyte each would all be read into memory. Past the limit the
 * parser multer pipes the request into fails (multer then drains the request and reports it).
 */
function withBodyLimit(req: Request, maxBytes: number): Request {
  const pipe = req.pipe.bind(req);
  req.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }) => {
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBytes) return;
      req.off('data', count);
      (destination as unknown as { destroy(error: Error): void }).destroy(tooLarge());
    };
    req.on('data', count);
    return pipe(destination, options);
  }) as Request['pipe'];
  return req;
}

export function configureBodyParsing(app: INestApplication, maxBodyBytes: number): RequestHandler[] {
  const instance = app.getHttpAdapter().getInstance() as express.Express;
  instance.set('query parser', 'simple');
  // The client address (per-IP rate limits) is the one a proxy on a private network appended to
  // X-Forwarded-For; `true` would take the leftmost entry, which the client writes itself.
  instance.set('trust proxy', 'loopback, linklocal, uniquelocal');
  const fieldsOnly = multer({ limits: { fieldSize: maxBodyBytes, fields: 1000, files: 0 } }).none();
  const parsers: RequestHandler[] = [
    plainFormBodies(maxBodyBytes),
    express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: FORM_PARAMETER_LIMIT }),
    (req: Request, res: Response, next: NextFunction) => {
      if (!req.is('multipart/form-data')) return next();
      // Refused unread: sendError drains the body before answering.
      if (!boundaryOf(req.headers['content-type'] ?? '')) return next(malformed());
      if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return next(tooLarge());
      return fieldsOnly(withBodyLimit(req, maxBodyBytes), res, next);
    },
  ];
  for (const parser of parsers) app.use(parser);
  return parsers;
}

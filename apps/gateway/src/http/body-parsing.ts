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
      if (req.is('multipart/form-data')) return fieldsOnly(req, res, next);
      next();
    },
  ];
  for (const parser of parsers) app.use(parser);
  return parsers;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Uploads } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';

export const CALLER_HEADER = Uploads.CALLER_HEADER;

export type Caller = Uploads.AdmittedCaller & { requestId: string };

export function callerOf(req: IncomingMessage): Caller {
  const header = req.headers[CALLER_HEADER];
  const requestId = String(req.headers['x-request-id'] ?? '');
  if (typeof header !== 'string') throw new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  return { ...Uploads.decodeCaller(header), requestId };
}

export function sendJson(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

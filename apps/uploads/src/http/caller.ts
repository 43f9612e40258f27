import type { IncomingMessage, ServerResponse } from 'node:http';
import { authUserSchema, realmRefSchema, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import { z } from 'zod';

/**
 * The header in which the gateway names the caller it admitted (base64url JSON). The gateway
 * removes any such header a client sends; the uploads listener is reachable by the gateway only.
 */
export const CALLER_HEADER = 'x-teamchat-caller';

const callerSchema = z.object({ realm: realmRefSchema, user: authUserSchema.nullable() });
export type Caller = { realm: RealmRef; user: AuthUser | null; requestId: string };

export function encodeCaller(caller: { realm: RealmRef; user: AuthUser | null }): string {
  return Buffer.from(JSON.stringify(caller)).toString('base64url');
}

export function callerOf(req: IncomingMessage): Caller {
  const header = req.headers[CALLER_HEADER];
  const requestId = String(req.headers['x-request-id'] ?? '');
  if (typeof header !== 'string') throw new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  const parsed = callerSchema.parse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
  return { ...parsed, requestId };
}

export function sendJson(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

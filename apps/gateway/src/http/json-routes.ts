import type { IncomingMessage } from 'node:http';

/** Where the web app calls the API: the same endpoints as /api/v1, admitted by the session cookie. */
export const JSON_PREFIX = '/json/';
const API_PREFIX = '/api/v1/';

/**
 * Endpoints not served under /json: their answer is an API key, which never reaches the browser
 * (a browser logs in at POST /accounts/login instead).
 */
const NOT_FOR_BROWSERS = new Set(['fetch_api_key']);

const viaSession = new WeakSet<IncomingMessage>();

/**
 * Zulip serves every endpoint twice: `/api/v1/...` for clients with HTTP Basic credentials and
 * `/json/...` for its web app, with the session cookie and a CSRF token. Here one set of
 * declarations serves both: a `/json/<path>` request is marked as a session request (never
 * admitted by Basic credentials, see AdmitCaller) and continues as `/api/v1/<path>`, so every
 * route, exact matching and admission apply to it unchanged. Done first, by FrontDoor, for every
 * request. Matched exactly, like every route: `/JSON/...` is no route.
 */
export function enterJson(req: IncomingMessage): void {
  const url = req.url ?? '';
  if (!url.startsWith(JSON_PREFIX)) return;
  viaSession.add(req);
  const rest = url.slice(JSON_PREFIX.length);
  const endpoint = rest.split(/[/?]/, 1)[0];
  if (NOT_FOR_BROWSERS.has(endpoint)) return; // stays /json/...: no route (404)
  req.url = API_PREFIX + rest;
}

/**
 * Marks a request outside /json as one its session admits: a file under /user_uploads/ that a
 * browser fetches itself (an image in a message), with its cookie and nothing else (UploadsProxy).
 */
export function admitBySession(req: IncomingMessage): void {
  viaSession.add(req);
}

/** Whether the request came in under /json, or is a browser's file request (admitted by its session only). */
export const isSessionRequest = (req: IncomingMessage): boolean => viaSession.has(req);

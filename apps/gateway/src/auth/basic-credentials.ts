import { ZulipError } from '@teamchat/zulip';

/** Parses `Authorization: Basic base64(email:api_key)` with Zulip's answers for bad headers. */
export function parseBasicAuth(header: string): { email: string; apiKey: string } {
  const [scheme, encoded, ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'basic') {
    throw new ZulipError('BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
  }
  if (!encoded || rest.length > 0) throw invalidHeader();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidHeader();
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

const invalidHeader = () => new ZulipError('UNAUTHORIZED', 'Invalid authorization header for basic auth');

export const notLoggedIn = () =>
  new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');

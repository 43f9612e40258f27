import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import type { CommandTime } from '@teamchat/platform';
import type { Request } from 'express';
import { notLoggedIn } from '../auth/basic-credentials';

/** What the gateway learns about a request before a handler runs. */
export interface RequestContext {
  requestId: string;
  realm?: RealmInfo;
  user: AuthUser | null;
  /** The browser session that admitted the request (its digest), for a request under /json. */
  session?: string;
  /** Parameter names the endpoint did not use, for `ignored_parameters_unsupported`. */
  ignored: string[];
  /** The request's time, which every command it calls shares (see requestIdWithin); none for a poll. */
  time?: CommandTime;
}

export type ApiRequest = Request & { ctx: RequestContext };

/**
 * The organization and user of a request admitted as `user` (admission has run), read with a
 * check instead of a `!`: a route mounted without admission fails closed, as not logged in.
 */
export function loggedIn(ctx: Pick<RequestContext, 'realm' | 'user'>): { realm: RealmInfo; user: AuthUser } {
  if (!ctx.realm || !ctx.user) throw notLoggedIn();
  return { realm: ctx.realm, user: ctx.user };
}

/** The request's variables as Zulip reads them: form body over query string, last value wins. */
export function rawParams(req: Pick<Request, 'query' | 'body' | 'method'>): Record<string, string> {
  const raw: Record<string, string> = Object.create(null);
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object') return;
    // Keys, not entries: no pair allocated per variable (GET /events decodes on every poll).
    for (const key of Object.keys(source)) {
      const value: unknown = (source as Record<string, unknown>)[key];
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      if (typeof last === 'string') raw[key] = last;
    }
  };
  add(req.query);
  if (req.method !== 'GET' && req.method !== 'HEAD') add(req.body);
  return raw;
}

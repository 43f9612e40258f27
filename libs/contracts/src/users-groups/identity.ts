import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand, type AuthUser, type RealmRef } from '../command';
import { int } from '../api/api-schemas';

/** What the gateway and server_settings need to know about an organization. */
export interface RealmInfo extends RealmRef {
  description: string;
  iconUrl: string;
  spectatorAccess: boolean;
  passwordAuthEnabled: boolean;
}

/** Which organization a host name selects (NONEXISTENT_SUBDOMAIN when none). */
export const resolveRealm = defineCommand<{ host: string }, RealmInfo>(
  'users-groups',
  'resolve_realm',
  z.object({ host: z.string() }),
);

/**
 * Checks HTTP Basic credentials against an organization; fails as Zulip does (401 UNAUTHORIZED).
 * `email: null` checks the API key alone, as Zulip does for the `api_key` query parameter of the
 * file URLs mobile apps open (they cannot set headers on an image).
 */
/**
 * `sendOnly`: the caller is an incoming webhook bot, which may only send messages (Zulip's
 * validate_api_key: "This API is not available to incoming webhook bots.").
 */
export type Authenticated = { realm: RealmInfo; user: AuthUser; sendOnly?: boolean };

export const authenticate = defineCommand<{ host: string; email: string | null; apiKey: string }, Authenticated>(
  'users-groups',
  'authenticate',
  z.object({ host: z.string(), email: z.string().nullable(), apiKey: z.string() }),
);

/**
 * `authenticate` for many credentials of one organization's host at once, each answered as
 * `authenticate` would (an Authenticated, or the 401's message): how the gateway checks every
 * credential, those asked for within a few milliseconds in one round trip. The single
 * `authenticate` stays served for gateways of the previous release during a rolling upgrade
 * (users-groups rolls first).
 */
export type AuthenticatedOrRefused = { ok: Authenticated } | { refused: string };

export const authenticateMany = defineCommand<{ host: string; credentials: { email: string | null; apiKey: string }[] }, { results: AuthenticatedOrRefused[] }>(
  'users-groups',
  'authenticate_many',
  z.object({ host: z.string(), credentials: z.array(z.object({ email: z.string().nullable(), apiKey: z.string() })).max(1000) }),
);

export const fetchApiKeyParams = {
  username: param.string(),
  password: param.string(),
};

/** The envelope's `user` is always null; `realm` comes from the host. */
export const fetchApiKey = defineApiCommand('users-groups', 'fetch_api_key', {
  route: 'POST /fetch_api_key',
  summary: "Exchanges a user's email and password for their API key.",
  auth: 'realm',
  params: fetchApiKeyParams,
  response: z.object({ api_key: z.string(), email: z.string(), user_id: int() }),
});
export type FetchApiKeyResult = z.output<typeof fetchApiKey.response>;

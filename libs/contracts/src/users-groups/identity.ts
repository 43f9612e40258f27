import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand, type AuthUser, type RealmRef } from '../command';

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

/** Checks HTTP Basic credentials against an organization; fails as Zulip does (401 UNAUTHORIZED). */
export const authenticate = defineCommand<{ host: string; email: string; apiKey: string }, { realm: RealmInfo; user: AuthUser }>(
  'users-groups',
  'authenticate',
  z.object({ host: z.string(), email: z.string(), apiKey: z.string() }),
);

export const fetchApiKeyParams = {
  username: param.string(),
  password: param.string(),
};

export interface FetchApiKeyResult {
  api_key: string;
  email: string;
  user_id: number;
}

/** POST /fetch_api_key. The envelope's `user` is always null; `realm` comes from the host. */
export const fetchApiKey = defineApiCommand<typeof fetchApiKeyParams, FetchApiKeyResult>(
  'users-groups',
  'fetch_api_key',
  fetchApiKeyParams,
);

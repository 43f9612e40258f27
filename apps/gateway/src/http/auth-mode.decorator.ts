import { SetMetadata } from '@nestjs/common';

/**
 * Who may call an endpoint:
 * - `user` (the default): an authenticated user of the organization the host selects;
 * - `spectator`: as `user`, or nobody when the organization has public access;
 * - `realm`: nobody needs to log in, but the host must select an organization;
 * - `none`: no organization or user is looked up.
 */
export type AuthMode = 'user' | 'spectator' | 'realm' | 'none';

export const AUTH_MODE = Symbol('AUTH_MODE');
export const Auth = (mode: AuthMode) => SetMetadata(AUTH_MODE, mode);

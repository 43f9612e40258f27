import { z } from 'zod';
import { authUserSchema, realmRefSchema, type AuthUser, type RealmRef } from '../command';

/**
 * The header in which the gateway names the caller it admitted to the uploads service's own
 * listener (base64url JSON). The gateway removes any such header a client sends; the listener is
 * reachable by the gateway only. Both ends use these two functions.
 */
export const CALLER_HEADER = 'x-teamchat-caller';

export interface AdmittedCaller {
  realm: RealmRef;
  user: AuthUser | null;
}

const callerSchema = z.object({ realm: realmRefSchema, user: authUserSchema.nullable() });

/** A route that admits nobody (a temporary URL) sends no organization; decoding that fails. */
export const encodeCaller = (caller: { realm: RealmRef | undefined; user: AuthUser | null }): string => Buffer.from(JSON.stringify(caller)).toString('base64url');

/** The caller a header names; throws on a header that is not one the gateway wrote. */
export const decodeCaller = (header: string): AdmittedCaller =>
  callerSchema.parse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));

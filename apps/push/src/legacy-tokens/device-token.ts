import { badRequest } from '@teamchat/zulip';

/** Zulip's PushDeviceToken kinds. */
export const TOKEN_KIND = { apns: 1, fcm: 2 } as const;
export type TokenKind = (typeof TOKEN_KIND)[keyof typeof TOKEN_KIND];

/**
 * Zulip's validate_token: a token is 1..4096 characters, and an APNs token is hex (Zulip decodes
 * it to check); the APNs token is kept in lower case, as APNs gives it.
 */
export function validToken(token: string, kind: TokenKind): string {
  if (token === '' || token.length > 4096) throw badRequest('Empty or invalid length token');
  if (kind === TOKEN_KIND.apns) {
    if (!/^(?:[0-9a-fA-F]{2})+$/.test(token)) throw badRequest('Invalid APNS token');
    return token.toLowerCase();
  }
  return token;
}

export const NOT_FOR_BOTS = 'This endpoint does not accept bot requests.';

import { createHash } from 'node:crypto';

/** Zulip's Gravatar URL for an address (zerver/lib/avatar.py); `medium` asks for 500 pixels. */
export function gravatarUrl(email: string, version: number, medium = false): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${version}`;
}

/**
 * A user's `avatar_url`: null when the client computes Gravatar URLs itself
 * (`client_gravatar`) and the user has no uploaded avatar.
 */
export function avatarUrl(user: { deliveryEmail: string; avatarSource: string; avatarVersion: number }, clientGravatar: boolean): string | null {
  return user.avatarSource === 'G' && clientGravatar ? null : gravatarUrl(user.deliveryEmail, user.avatarVersion);
}

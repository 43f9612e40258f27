import { createHash } from 'node:crypto';

/**
 * The server's avatar settings (Zulip's ENABLE_GRAVATAR and AVATAR_SALT), set once per process
 * at start from its configuration (`configureAvatars`, called by `configOrExit`): every service
 * computes the same URL for the same user.
 */
export interface AvatarSettings {
  /** Gravatar serves the avatars of users who uploaded none; otherwise Zulip's default image. */
  enableGravatar: boolean;
  /** Salts the hash in uploaded avatars' paths, so they cannot be enumerated. */
  salt: string;
}

let settings: AvatarSettings = { enableGravatar: true, salt: '' };

export function configureAvatars(next: AvatarSettings): void {
  settings = { ...next };
}

/** Zulip's thumbnail sizes (zerver/lib/thumbnail.py DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE). */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/** Where an image is served when Gravatar is off and no avatar was uploaded (Zulip's default). */
export const DEFAULT_AVATAR_PATH = '/static/images/default-avatar.png';

/** What a user's avatar URL is computed from (the `users` columns). */
export interface AvatarOwner {
  id: number;
  deliveryEmail: string;
  avatarSource: string;
  avatarVersion: number;
}

/** An address's Gravatar URL (or the default image when Gravatar is off); `medium` asks for 500 pixels. */
export function gravatarUrl(email: string, version: number, medium = false): string {
  if (!settings.enableGravatar) return `${DEFAULT_AVATAR_PATH}?version=${version}`;
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? `&s=${MEDIUM_AVATAR_SIZE}` : ''}&version=${version}`;
}

/**
 * The path (below /user_avatars/, without extension) of a user's uploaded avatar:
 * `<realm_id>/<sha1(salt + user id)>` (Zulip's user_avatar_path_from_ids). The files are
 * `<path>.png` (100 px), `<path>-medium.png` (500 px) and `<path>.original`.
 */
export function userAvatarPath(userId: number, realmId: number): string {
  return `${realmId}/${createHash('sha1').update(`${settings.salt}${userId}`).digest('hex')}`;
}

/** Whether a client with `client_gravatar` computes this user's avatar itself (Gravatar on, and no upload). */
export function clientComputesAvatar(avatarSource: string): boolean {
  return settings.enableGravatar && avatarSource === 'G';
}

/**
 * A user's `avatar_url` (Zulip's get_avatar_field), the one rule every service uses: null when
 * the client computes Gravatar URLs itself (`clientGravatar`) and would compute this one; an
 * uploaded avatar's `/user_avatars/<realm>/<hash>.png`; else the Gravatar (or default) URL.
 * Always versioned, so a new avatar is a new URL.
 */
export function avatarUrl(user: AvatarOwner, options: { realmId: number; clientGravatar?: boolean; medium?: boolean }): string | null {
  if (options.clientGravatar && clientComputesAvatar(user.avatarSource)) return null;
  if (user.avatarSource === 'U') {
    return `/user_avatars/${userAvatarPath(user.id, options.realmId)}${options.medium ? '-medium' : ''}.png?version=${user.avatarVersion}`;
  }
  return gravatarUrl(user.deliveryEmail, user.avatarVersion, options.medium ?? false);
}

/** `avatar_url` and `avatar_url_medium` as never null (an event, the caller's own record). */
export function avatarUrls(user: AvatarOwner, realmId: number): { avatar_url: string; avatar_url_medium: string } {
  return { avatar_url: avatarUrl(user, { realmId })!, avatar_url_medium: avatarUrl(user, { realmId, medium: true })! };
}

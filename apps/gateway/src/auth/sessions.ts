import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, REDIS, type AppConfig, type RedisClient } from '@teamchat/platform';
import { ZulipError, type ErrorCode } from '@teamchat/zulip';

/** The cookies, as Zulip's (Django's) names: the session (HttpOnly) and the CSRF token the app reads. */
export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
/** The header the web app sends the CSRF token in (Zulip's). */
export const CSRF_HEADER = 'x-csrftoken';
/** How long a session lives from its login (Zulip's SESSION_COOKIE_AGE: two weeks). */
export const SESSION_SECONDS = 14 * 24 * 3600;

/** A session as it is read back: who, and what proves it. */
export interface Session {
  /** The Redis key's digest part: names the session without being its id. */
  digest: string;
  realmId: number;
  userId: number;
  apiKey: string;
  csrfToken: string;
}

interface StoredSession {
  realmId: number;
  userId: number;
  /** The user's API key, encrypted with a key derived from the session id (AES-256-GCM, base64url: iv.tag.text). */
  key: string;
  csrfToken: string;
  createdAt: number;
}

/**
 * Browser sessions (Zulip's web login): a random id in an HttpOnly, SameSite=Lax cookie names a
 * session in Redis (`session:<sha256(id)>`, expiring SESSION_SECONDS after the login) holding the
 * organization, the user, a CSRF token and the user's API key. Each request through a session is
 * then checked exactly as an API key is (CredentialCache, users-groups' authenticate), so a
 * deactivation or a rotated key ends it at once. Redis holds neither the id (only its digest) nor
 * the key in the clear: the key is encrypted under a key derived from the id, which only the
 * browser has. `session:user:<userId>` lists a user's sessions so they can all be ended (password
 * change, deactivation).
 */
@Injectable()
export class Sessions {
  private readonly secure: boolean;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = new URL(config.EXTERNAL_URL).protocol === 'https:';
  }

  /** Starts a session and sets its cookies on `res`. */
  async start(res: ServerResponse, who: { realmId: number; userId: number; apiKey: string }): Promise<void> {
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const digest = digestOf(id);
    const stored: StoredSession = { realmId: who.realmId, userId: who.userId, key: seal(id, who.apiKey), csrfToken, createdAt: Date.now() };
    // The user's list first, then the session (the two keys are in different slots of a
    // cluster, so no transaction): a session that exists is always listed, for endAllOf.
    await this.redis.multi().sadd(userKey(who.userId), digest).expire(userKey(who.userId), SESSION_SECONDS).exec();
    await this.redis.set(sessionKey(digest), JSON.stringify(stored), 'EX', SESSION_SECONDS);
    this.setCookies(res, [
      cookie(SESSION_COOKIE, id, { httpOnly: true, maxAge: SESSION_SECONDS, secure: this.secure }),
      cookie(CSRF_COOKIE, csrfToken, { httpOnly: false, maxAge: SESSION_SECONDS, secure: this.secure }),
    ]);
  }

  /** The request's session, or null when it carries none or one that ended. */
  async read(req: IncomingMessage): Promise<Session | null> {
    const id = cookiesOf(req)[SESSION_COOKIE];
    if (!id || !ID_PATTERN.test(id)) return null;
    const digest = digestOf(id);
    const text = await this.redis.get(sessionKey(digest));
    if (!text) return null;
    const stored = JSON.parse(text) as StoredSession;
    const apiKey = unseal(id, stored.key);
    if (apiKey === null) return null;
    return { digest, realmId: stored.realmId, userId: stored.userId, apiKey, csrfToken: stored.csrfToken };
  }

  /** Refuses an unsafe request whose `X-CSRFToken` is not its session's token (Zulip's CSRF_FAILED). */
  checkCsrf(req: IncomingMessage, session: Session): void {
    const given = req.headers[CSRF_HEADER];
    if (typeof given !== 'string' || given === '') throw csrfFailed('CSRF token missing.');
    if (!sameText(given, session.csrfToken)) throw csrfFailed('CSRF token incorrect.');
  }

  /**
   * Before a login: the double-submit check (the header equals the `csrftoken` cookie the app's
   * page set). A cross-site form can set neither a header nor our cookie.
   */
  checkLoginCsrf(req: IncomingMessage): void {
    const given = req.headers[CSRF_HEADER];
    const cookieToken = cookiesOf(req)[CSRF_COOKIE];
    if (typeof given !== 'string' || given === '' || !cookieToken) throw csrfFailed('CSRF token missing.');
    if (!sameText(given, cookieToken)) throw csrfFailed('CSRF token incorrect.');
  }

  /** Sets a fresh `csrftoken` cookie when the request has none (the app's page, before a login). */
  ensureCsrfCookie(req: IncomingMessage, res: ServerResponse): void {
    if (cookiesOf(req)[CSRF_COOKIE]) return;
    this.setCookies(res, [cookie(CSRF_COOKIE, randomBytes(32).toString('base64url'), { httpOnly: false, maxAge: SESSION_SECONDS, secure: this.secure })]);
  }

  /**
   * The request's session goes on with the user's new API key (the caller regenerated it): a
   * browser stays logged in, as in Zulip, where sessions do not hang on the key.
   */
  async rekey(req: IncomingMessage, apiKey: string): Promise<void> {
    const id = cookiesOf(req)[SESSION_COOKIE];
    if (!id || !ID_PATTERN.test(id)) return;
    const key = sessionKey(digestOf(id));
    const text = await this.redis.get(key);
    if (!text) return;
    const stored = JSON.parse(text) as StoredSession;
    await this.redis.set(key, JSON.stringify({ ...stored, key: seal(id, apiKey) }), 'KEEPTTL');
  }

  /** Ends one session. */
  async end(session: Pick<Session, 'digest' | 'userId'>): Promise<void> {
    // The session first, then its listing (see start).
    await this.redis.del(sessionKey(session.digest));
    await this.redis.srem(userKey(session.userId), session.digest);
  }

  /** Ends every session of the user, but `keep` (the one that changed the password stays logged in, as in Zulip). */
  async endAllOf(userId: number, keep?: string): Promise<void> {
    const digests = (await this.redis.smembers(userKey(userId))).filter((digest) => digest !== keep);
    if (digests.length === 0) return;
    // One DEL per session (each in its own slot), then the listing (see start).
    await Promise.all(digests.map((digest) => this.redis.del(sessionKey(digest))));
    await this.redis.srem(userKey(userId), ...digests);
  }

  /** Clears the browser's cookies (logout). */
  clearCookies(res: ServerResponse): void {
    this.setCookies(res, [
      cookie(SESSION_COOKIE, '', { httpOnly: true, maxAge: 0, secure: this.secure }),
      cookie(CSRF_COOKIE, '', { httpOnly: false, maxAge: 0, secure: this.secure }),
    ]);
  }

  private setCookies(res: ServerResponse, cookies: string[]): void {
    const existing = res.getHeader('Set-Cookie');
    const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    res.setHeader('Set-Cookie', [...before, ...cookies]);
  }
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const sessionKey = (digest: string) => `session:${digest}`;
const userKey = (userId: number) => `session:user:${userId}`;
const digestOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** Zulip's answer to a CSRF failure: 403 CSRF_FAILED (a code only the gateway's session check gives). */
const csrfFailed = (reason: string) => new ZulipError('CSRF_FAILED' as ErrorCode, `CSRF error: ${reason}`, {}, 403);

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The AES key for a session's stored secret: derived from the session id, which Redis never sees. */
const keyOf = (id: string) => createHmac('sha256', id).update('teamchat session api key').digest();

function seal(id: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(id), iv);
  const text = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), text].map((part) => part.toString('base64url')).join('.');
}

function unseal(id: string, sealed: string): string | null {
  try {
    const [iv, tag, text] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', keyOf(id), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The request's cookies (first value of each name wins, as Django reads them). */
export function cookiesOf(req: IncomingMessage): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  const header = req.headers.cookie;
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name in cookies) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = value;
  }
  return cookies;
}

function cookie(name: string, value: string, options: { httpOnly: boolean; maxAge: number; secure: boolean }): string {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${options.maxAge}`, 'SameSite=Lax'];
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

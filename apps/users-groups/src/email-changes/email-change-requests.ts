import { randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, MailQueue, RateLimiter, type AppConfig, type RateLimitRule } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import { EmailChangesRepository } from '../data/email-changes.repository';
import type { Transaction } from '../data/transactions';
import { RealmDirectory } from '../realms/realm-directory';
import { confirmNewEmailMail } from './email-change-mails';

/** How long a confirmation link works (Zulip: a day). */
export const EMAIL_CHANGE_VALIDITY_MS = 24 * 3600 * 1000;

/** Zulip's email_change_by_user: 2 requests an hour and 5 a day per user. */
const RULES: RateLimitRule[] = [
  { name: 'email_change_by_user_hour', limit: 2, windowSeconds: 3600 },
  { name: 'email_change_by_user_day', limit: 5, windowSeconds: 86400 },
];

/** Zulip's confirmation keys: 24 characters of lower-case base32 (120 random bits). */
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const generateKey = () => Array.from({ length: 24 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');

/** Confirmation keys as they may appear in a link (Zulip accepts 24 or 40 characters). */
export const isWellFormedKey = (key: string): boolean => /^[a-z0-9]{24}$|^[a-z0-9]{40}$/.test(key);

/** Pending email changes (table email_change_requests) and the mail that confirms one. */
@Injectable()
export class EmailChangeRequests {
  private readonly rateLimited: boolean;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly changes: EmailChangesRepository,
    private readonly realms: RealmDirectory,
    private readonly mail: MailQueue,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rateLimited = config.RATE_LIMIT_ENABLED;
  }

  /** Counts a request against the user's budget, or refuses it (429) without counting it. */
  async admit(userId: number): Promise<void> {
    if (!this.rateLimited) return;
    const key = String(userId);
    const states = await Promise.all(RULES.map((rule) => this.limiter.peek(rule, key)));
    const wait = Math.max(...states.map((state) => state.retryAfter));
    if (wait > 0) throw new ZulipError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': wait });
    await Promise.all(RULES.map((rule) => this.limiter.hit(rule, key)));
  }

  /**
   * Within the caller's transaction: replaces any pending change of the user's with this one
   * (an older link stops working, as Zulip revokes it) and queues the mail of the link to the
   * new address (MailQueue): an SMTP server that refuses or is down does not fail the request;
   * the mail is retried, and a change whose mail never arrives simply expires.
   */
  async start(
    user: { id: number; deliveryEmail: string },
    realm: { subdomain: string; name: string },
    newEmail: string,
    tx: Transaction,
  ): Promise<void> {
    const key = generateKey();
    await this.changes.replacePending(
      { key, userId: user.id, oldEmail: user.deliveryEmail, newEmail, expiresAt: new Date(Date.now() + EMAIL_CHANGE_VALIDITY_MS) },
      tx,
    );
    const realmUrl = this.realms.urlOf(realm.subdomain);
    await this.mail.send(
      confirmNewEmailMail({
        realmName: realm.name,
        realmUrl,
        oldEmail: user.deliveryEmail,
        newEmail,
        link: `${realmUrl}${UsersGroups.CONFIRM_NEW_EMAIL_PATH}/${key}`,
      }),
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, RateLimiter, type AppConfig, type RateLimitRule } from '@teamchat/platform';

/**
 * Failed password checks per username (Zulip's `authenticate_by_username`: 5 per 30 minutes),
 * one budget for every place a password is checked (POST /fetch_api_key, a password change
 * in PATCH /settings). A correct password clears it, as Zulip's rate_limit_auth does.
 */
@Injectable()
export class PasswordAttempts {
  private readonly rule: RateLimitRule;
  private readonly enabled: boolean;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = config.RATE_LIMIT_ENABLED;
    this.rule = {
      name: 'authenticate_by_username',
      limit: config.RATE_LIMIT_AUTH_ATTEMPTS,
      windowSeconds: config.RATE_LIMIT_AUTH_WINDOW_SECONDS,
    };
  }

  /** Seconds before `username` may try again; 0 when it may now. */
  async secondsToWait(realmId: number, username: string): Promise<number> {
    if (!this.enabled) return 0;
    return (await this.limiter.peek(this.rule, this.key(realmId, username))).retryAfter;
  }

  async failed(realmId: number, username: string): Promise<void> {
    if (this.enabled) await this.limiter.hit(this.rule, this.key(realmId, username));
  }

  async succeeded(realmId: number, username: string): Promise<void> {
    if (this.enabled) await this.limiter.reset(this.rule, this.key(realmId, username));
  }

  private key(realmId: number, username: string): string {
    return `${realmId}:${username.trim().toLowerCase()}`;
  }
}

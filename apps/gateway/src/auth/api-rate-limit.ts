import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, RateLimiter, type AppConfig, type RateLimitState } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import type { Response } from 'express';
import type { ApiRequest } from '../http/request-context';

/**
 * The per-user (authenticated) or per-IP (anonymous) API limit, with Zulip's headers;
 * RATE_LIMIT_HIT with `retry-after` once the window's allowance is spent.
 */
@Injectable()
export class ApiRateLimit {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(req: ApiRequest, res: Response): Promise<void> {
    if (!this.config.RATE_LIMIT_ENABLED) return;
    const windowSeconds = this.config.RATE_LIMIT_WINDOW_SECONDS;
    const state: RateLimitState = req.ctx.user
      ? await this.limiter.hit(
          { name: 'api_by_user', limit: this.config.RATE_LIMIT_API_PER_USER, windowSeconds },
          String(req.ctx.user.id),
        )
      : await this.limiter.hit({ name: 'api_by_ip', limit: this.config.RATE_LIMIT_API_PER_IP, windowSeconds }, req.ip ?? '');
    res.setHeader('X-RateLimit-Limit', String(state.limit));
    res.setHeader('X-RateLimit-Remaining', String(state.remaining));
    res.setHeader('X-RateLimit-Reset', String(state.resetAt));
    if (!state.allowed) {
      throw new ZulipError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': state.retryAfter });
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type RedisClient } from './redis';

export interface RateLimitRule {
  /** Names the bucket family, e.g. `api_by_user`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the window resets. */
  resetAt: number;
  /** Seconds until another request is allowed; 0 while allowed. */
  retryAfter: number;
}

/**
 * Fixed-window counters in Redis, shared by every replica. `hit` counts a request; `peek`
 * only reads (used where only failures count, as for password attempts).
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  async hit(rule: RateLimitRule, key: string): Promise<RateLimitState> {
    const redisKey = `ratelimit:${rule.name}:${key}`;
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .incr(redisKey)
      .pttl(redisKey)
      .exec()) as [[null, number], [null, number]];
    let ttlMs = ttl;
    if (ttlMs < 0) {
      ttlMs = rule.windowSeconds * 1000;
      await this.redis.pexpire(redisKey, ttlMs);
    }
    return this.state(rule, count, ttlMs, count <= rule.limit);
  }

  async peek(rule: RateLimitRule, key: string): Promise<RateLimitState> {
    const redisKey = `ratelimit:${rule.name}:${key}`;
    const [[, raw], [, ttl]] = (await this.redis.multi().get(redisKey).pttl(redisKey).exec()) as [
      [null, string | null],
      [null, number],
    ];
    const count = Number(raw ?? 0);
    return this.state(rule, count, ttl > 0 ? ttl : rule.windowSeconds * 1000, count < rule.limit);
  }

  /** Forgets the bucket (e.g. a correct password clears the failed attempts before it). */
  async reset(rule: RateLimitRule, key: string): Promise<void> {
    await this.redis.del(`ratelimit:${rule.name}:${key}`);
  }

  private state(rule: RateLimitRule, count: number, ttlMs: number, allowed: boolean): RateLimitState {
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetAt: Math.ceil((Date.now() + ttlMs) / 1000),
      retryAfter: allowed ? 0 : ttlMs / 1000,
    };
  }
}

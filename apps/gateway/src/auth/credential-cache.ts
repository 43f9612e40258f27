import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, REDIS, type AppConfig } from '@teamchat/platform';
import type { Redis } from 'ioredis';

/**
 * Organization and credential look-ups through users-groups, remembered in Redis for a few
 * seconds (AUTH_CACHE_TTL_SECONDS) so a changed key or a deactivation takes effect quickly.
 * Each replica also keeps what it read for the rest of that time in memory, which saves a
 * Redis round trip on every long-poll. Failures are never remembered.
 */
@Injectable()
export class CredentialCache {
  private readonly local = new Map<string, { value: unknown; until: number }>();

  constructor(
    private readonly commands: CommandClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  realm(host: string): Promise<RealmInfo> {
    return this.remember(`realm:${host}`, () => this.commands.call(UsersGroups.resolveRealm, { host }));
  }

  authenticate(host: string, email: string, apiKey: string): Promise<{ realm: RealmInfo; user: AuthUser }> {
    return this.remember(`user:${host}\n${email}\n${apiKey}`, () => this.commands.call(UsersGroups.authenticate, { host, email, apiKey }));
  }

  /** `name` stays in this process's memory; Redis sees only its digest (no API key at rest). */
  private async remember<T>(name: string, load: () => Promise<T>): Promise<T> {
    const ttl = this.config.AUTH_CACHE_TTL_SECONDS;
    if (ttl === 0) return load();
    const now = Date.now();
    const kept = this.local.get(name);
    if (kept && kept.until > now) return kept.value as T;
    const key = `authcache:${digest(name)}`;
    // Redis's remaining time bounds the memory copy, so an entry never outlives the TTL.
    const [[, cached], [, remainingMs]] = (await this.redis.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
    if (cached) {
      const value = JSON.parse(cached) as T;
      this.keep(name, value, now + Math.max(0, remainingMs));
      return value;
    }
    const value = await load();
    await this.redis.set(key, JSON.stringify(value), 'EX', ttl);
    this.keep(name, value, now + ttl * 1000);
    return value;
  }

  private keep(name: string, value: unknown, until: number): void {
    if (this.local.size >= LOCAL_ENTRIES) this.local.clear(); // crude but bounded; refilled from Redis
    this.local.set(name, { value, until });
  }
}

const LOCAL_ENTRIES = 100_000;
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

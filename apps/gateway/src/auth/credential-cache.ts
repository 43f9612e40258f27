import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, REDIS, type AppConfig } from '@teamchat/platform';
import type { Redis } from 'ioredis';

/**
 * Organization and credential look-ups through users-groups, remembered in Redis for a few
 * seconds (AUTH_CACHE_TTL_SECONDS) so a changed key or a deactivation takes effect quickly.
 * Failures are never remembered.
 */
@Injectable()
export class CredentialCache {
  constructor(
    private readonly commands: CommandClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  realm(host: string): Promise<RealmInfo> {
    return this.remember(`authcache:realm:${digest(host)}`, () => this.commands.call(UsersGroups.resolveRealm, { host }));
  }

  authenticate(host: string, email: string, apiKey: string): Promise<{ realm: RealmInfo; user: AuthUser }> {
    return this.remember(`authcache:user:${digest(`${host}\n${email}\n${apiKey}`)}`, () =>
      this.commands.call(UsersGroups.authenticate, { host, email, apiKey }),
    );
  }

  private async remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    const ttl = this.config.AUTH_CACHE_TTL_SECONDS;
    if (ttl > 0) {
      const cached = await this.redis.get(key);
      if (cached) return JSON.parse(cached) as T;
    }
    const value = await load();
    if (ttl > 0) await this.redis.set(key, JSON.stringify(value), 'EX', ttl);
    return value;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

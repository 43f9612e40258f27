import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, REDIS, type AppConfig, type CommandTime, type RedisClient } from '@teamchat/platform';
import type { Msg } from 'nats';
import { parseBasicAuth } from './basic-credentials';

/**
 * Organization and credential look-ups through users-groups, remembered in Redis for a few
 * seconds (AUTH_CACHE_TTL_SECONDS) so a rotated key takes effect quickly. Each replica also
 * keeps what it read for the rest of that time in memory, which saves a Redis round trip on
 * every long-poll. Failures are never remembered.
 *
 * A deactivation, a role change or a new address takes effect at once instead: users-groups
 * publishes `user_access_changed`, which every replica hears (a plain subscription on the
 * connection its command replies arrive on, so it is heard before the reply to the request
 * that made the change). From then, for as long as any credential remembered before it can
 * live (the TTL, plus a margin for replicas hearing it at slightly different times), the
 * replica trusts no remembered credential of that user and remembers none: each request asks
 * users-groups. It also marks the user in Redis for as long, so a replica that starts (or
 * reconnects) meanwhile does not trust what others remembered either.
 */
@Injectable()
export class CredentialCache implements OnModuleInit {
  private readonly local = new Map<string, { value: unknown; until: number }>();
  /** Which remembered credential each `Authorization` header names, by host: a poll neither decodes its header nor builds a key. */
  private readonly headers = new Map<string, Map<string, string>>();
  private headerCount = 0;
  /** Users whose remembered credentials are not to be trusted, until when (ms). */
  private readonly revoked = new Map<number, number>();

  constructor(
    private readonly commands: CommandClient,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.AUTH_CACHE_TTL_SECONDS === 0) return; // nothing is remembered
    const nats = await this.commands.connect();
    nats.subscribe(UsersGroups.UserAdministrationEvents.userAccessChanged.subject, {
      callback: (error, message) => {
        if (!error) this.heard(message);
      },
    });
  }

  /** `within`: the time of the request it is asked for (see callerTime). */
  realm(host: string, within?: CommandTime): Promise<RealmInfo> {
    return this.remember(`realm:${host}`, () => this.commands.call(UsersGroups.resolveRealm, { host }, { within }));
  }

  /**
   * The caller an `Authorization: Basic` header names (parseBasicAuth's answers for a bad one),
   * as `authenticate` finds it; the header is remembered with the credential it names, for as
   * long as that is (and its user's revocation ends it as it ends that).
   */
  async authenticateBasic(host: string, authorization: string, within?: CommandTime): Promise<Identity> {
    const known = this.knownBasic(host, authorization);
    if (known) return known;
    const { email, apiKey } = parseBasicAuth(authorization);
    const identity = await this.authenticate(host, email, apiKey, within);
    if (this.config.AUTH_CACHE_TTL_SECONDS > 0) {
      if (this.headerCount >= LOCAL_ENTRIES) (this.headers.clear(), (this.headerCount = 0)); // as crude as `keep`
      let ofHost = this.headers.get(host);
      if (!ofHost) this.headers.set(host, (ofHost = new Map()));
      if (!ofHost.has(authorization)) this.headerCount++;
      ofHost.set(authorization, userKey(host, email, apiKey));
    }
    return identity;
  }

  /**
   * The caller of a header remembered here and still trusted, without waiting: what
   * `authenticateBasic` answers first (a poll admitted this way costs no promise).
   */
  knownBasic(host: string, authorization: string): Identity | undefined {
    const name = this.headers.get(host)?.get(authorization);
    if (name === undefined) return undefined;
    const kept = this.local.get(name);
    return kept && kept.until > Date.now() && !this.isRevoked((kept.value as Identity).user.id) ? (kept.value as Identity) : undefined;
  }

  /** `email: null`: the API key alone (the `api_key` query parameter of file URLs). */
  authenticate(host: string, email: string | null, apiKey: string, within?: CommandTime): Promise<Identity> {
    return this.remember(
      email === null ? `key:${host}\n${apiKey}` : userKey(host, email, apiKey),
      () => this.commands.call(UsersGroups.authenticate, { host, email, apiKey }, { within }),
      (value) => value.user.id,
    );
  }

  /** Stops trusting (and remembering) the user's credentials for as long as any remembered copy can live. */
  revoke(userId: number): void {
    const windowMs = this.config.AUTH_CACHE_TTL_SECONDS * 1000 + REVOCATION_MARGIN_MS;
    const now = Date.now();
    if (this.revoked.size >= 1000) for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
    this.revoked.set(userId, now + windowMs);
    this.redis.set(revokedKey(userId), '1', 'PX', windowMs).catch(() => undefined);
  }

  private heard(message: Msg): void {
    try {
      const parsed = UsersGroups.userAccessChangedSchema.safeParse(JSON.parse(new TextDecoder().decode(message.data)));
      if (parsed.success) this.revoke(parsed.data.userId);
    } catch {
      // Not JSON: not an event of ours.
    }
  }

  private isRevoked(userId: number): boolean {
    return (this.revoked.get(userId) ?? 0) > Date.now();
  }

  /**
   * `name` stays in this process's memory; Redis sees only its digest (no API key at rest).
   * With `userOf`, a remembered value whose user is revoked is not trusted and a loaded one
   * not remembered.
   */
  private async remember<T>(name: string, load: () => Promise<T>, userOf?: (value: T) => number): Promise<T> {
    const ttl = this.config.AUTH_CACHE_TTL_SECONDS;
    if (ttl === 0) return load();
    const now = Date.now();
    const kept = this.local.get(name);
    if (kept && kept.until > now && !(userOf && this.isRevoked(userOf(kept.value as T)))) return kept.value as T;
    const key = `authcache:${digest(name)}`;
    // Redis's remaining time bounds the memory copy, so an entry never outlives the TTL.
    const [[, cached], [, remainingMs]] = (await this.redis.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
    if (cached) {
      const value = JSON.parse(cached) as T;
      const userId = userOf?.(value);
      // The Redis mark is read only here, once per TTL per credential and replica.
      const trusted = userId === undefined || (!this.isRevoked(userId) && (await this.redis.exists(revokedKey(userId))) === 0);
      if (trusted) {
        this.keep(name, value, now + Math.max(0, remainingMs));
        return value;
      }
    }
    const value = await load();
    const userId = userOf?.(value);
    if (userId !== undefined && this.isRevoked(userId)) return value;
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
/** Who a credential names: the organization, the user, and whether it may only send (an incoming webhook bot). */
export type Identity = { realm: RealmInfo; user: AuthUser; sendOnly?: boolean };
/** The name an email and API key are remembered under. */
const userKey = (host: string, email: string, apiKey: string) => `user:${host}\n${email}\n${apiKey}`;
/** How much later than another replica one may hear a revocation, at worst. */
const REVOCATION_MARGIN_MS = 5000;
const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const revokedKey = (userId: number) => `authcache:revoked:${userId}`;

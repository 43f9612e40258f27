import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, REDIS, type AppConfig, type CommandTime, type RedisClient } from '@teamchat/platform';
import type { Msg } from 'nats';
import { ZulipError } from '@teamchat/zulip';
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
  /** The names being refreshed (see remember): one refresh at a time each. */
  private readonly refreshing = new Set<string>();
  /** Credentials to check in the next `authenticate_many`, by host (see checked). */
  private readonly pending = new Map<string, PendingCheck[]>();
  /** Users whose remembered credentials are not to be trusted, until when (ms). */
  private readonly revoked = new Map<number, number>();
  /** The remembered credentials of waiting polls, by name, with how many wait (see hold). */
  private readonly held = new Map<string, Holding>();
  private sweeping?: NodeJS.Timeout;

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
    const now = Date.now();
    if (!kept || kept.until <= now || this.isRevoked((kept.value as Identity).user.id)) return undefined;
    if (this.dueForCheck(name, kept.until, now)) {
      // `authenticate` starts the check (see remember).
      const { email, apiKey } = parseBasicAuth(authorization);
      this.authenticate(host, email, apiKey).catch(() => undefined);
    }
    return kept.value as Identity;
  }

  /**
   * Keeps the credential of a header remembered here checked ahead while a poll waits on it,
   * until the answer given back is called. A poll waits up to EVENT_HEARTBEAT_SECONDS, longer
   * than the TTL: without this, a quiet organization's clients all came back at its next
   * message with credentials that had run out, and that message's successors waited for a
   * thousand checks. Costs one batched check per TTL for all the polls waiting.
   */
  hold(host: string, authorization: string): () => void {
    const name = this.headers.get(host)?.get(authorization);
    if (name === undefined) return NOTHING_HELD;
    let holding = this.held.get(name);
    if (!holding) this.held.set(name, (holding = { host, authorization, polls: 0 }));
    holding.polls++;
    this.sweeping ??= setInterval(() => this.sweep(), Math.min((this.config.AUTH_CACHE_TTL_SECONDS * 1000) / 8, REFRESH_AHEAD_MS / 2)).unref();
    const held = holding;
    // Kept at none until the sweep: a client's next poll holds it again, without a map write each time.
    return () => void held.polls--;
  }

  /**
   * Lets go of the credentials no poll holds any more, and starts the checks due of the others
   * (knownBasic starts a check that is due). Most are not due: their remembered time is read
   * directly, as a gateway may hold a poll per client.
   */
  private sweep(): void {
    const now = Date.now();
    for (const [name, { host, authorization, polls }] of this.held) {
      if (polls === 0) this.held.delete(name);
      else if (this.dueForCheck(name, this.local.get(name)?.until ?? 0, now)) this.knownBasic(host, authorization);
    }
    if (this.held.size === 0) {
      clearInterval(this.sweeping);
      this.sweeping = undefined;
    }
  }

  /** `email: null`: the API key alone (the `api_key` query parameter of file URLs). */
  authenticate(host: string, email: string | null, apiKey: string, within?: CommandTime): Promise<Identity> {
    const name = email === null ? `key:${host}\n${apiKey}` : userKey(host, email, apiKey);
    return this.remember(name, () => this.checked(host, { email, apiKey }, within), (value) => value.user.id);
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
    if (kept && kept.until > now && !(userOf && this.isRevoked(userOf(kept.value as T)))) {
      // Used near the end of its time: checked again ahead, so that the requests of a
      // credential in use do not wait for users-groups once per TTL (with the default 5 s and a
      // thousand clients long-polling, that was two hundred waits a second). Nothing is admitted
      // past its time: a check that fails, or comes too late, leaves the next request to ask.
      if (this.dueForCheck(name, kept.until, now)) this.refresh(name, load, userOf);
      return kept.value as T;
    }
    return this.fetch(name, load, userOf);
  }

  /**
   * Whether a remembered answer in use is to be checked again now: in its last second (at most
   * a quarter of the TTL), and not being checked already.
   */
  private dueForCheck(name: string, until: number, now: number): boolean {
    return until - now < Math.min((this.config.AUTH_CACHE_TTL_SECONDS * 1000) / 4, REFRESH_AHEAD_MS) && !this.refreshing.has(name);
  }

  /** Asks again for one remembered answer (not Redis's copy, which is as old) and remembers it afresh. */
  private refresh<T>(name: string, load: () => Promise<T>, userOf?: (value: T) => number): void {
    this.refreshing.add(name);
    load()
      .then(async (value) => {
        if (userOf && this.isRevoked(userOf(value))) return;
        await this.store(name, value);
      })
      // Refused now: forgotten. Unanswered: kept for the rest of its time.
      .catch((error: unknown) => refusedNow(error) && this.local.delete(name))
      .finally(() => this.refreshing.delete(name));
  }

  /**
   * A credential checked by users-groups, with every other of its host asked for within
   * CHECK_GATHER_MS, in one `authenticate_many` (one statement for all their keys):
   * credentials remembered together run out together, and a thousand clients whose polls had
   * waited past the TTL come back together at the next message; one `authenticate` each cost
   * users-groups a millisecond of CPU apiece and held those polls up by a second.
   */
  private checked(host: string, credential: Credential, within?: CommandTime): Promise<Identity> {
    // The first asked for since the last call: the call goes a few milliseconds later, with the
    // others asked for meanwhile (requests that arrive together reach this point a little
    // apart, each after its own read of Redis's copy).
    if (this.pending.size === 0) setTimeout(() => this.checkPending(), CHECK_GATHER_MS);
    let ofHost = this.pending.get(host);
    if (!ofHost) this.pending.set(host, (ofHost = []));
    return new Promise((resolve, reject) => ofHost.push({ credential, within, resolve, reject }));
  }

  private checkPending(): void {
    const pending = [...this.pending];
    this.pending.clear();
    for (const [host, asked] of pending) {
      for (let from = 0; from < asked.length; from += CHECKED_AT_ONCE) void this.checkMany(host, asked.slice(from, from + CHECKED_AT_ONCE));
    }
  }

  private async checkMany(host: string, asked: PendingCheck[]): Promise<void> {
    try {
      // The call lives as long as the first of its callers has.
      const within = asked.find((check) => check.within)?.within;
      const { results } = await this.commands.call(UsersGroups.authenticateMany, { host, credentials: asked.map((check) => check.credential) }, { within });
      asked.forEach((check, i) => {
        const result = results[i];
        if (result && 'ok' in result) check.resolve(result.ok);
        else check.reject(new ZulipError('UNAUTHORIZED', result?.refused ?? 'Invalid API key'));
      });
    } catch (error) {
      for (const check of asked) check.reject(error);
    }
  }

  /** Reads Redis, then users-groups, and remembers what it found (see remember). */
  private async fetch<T>(name: string, load: () => Promise<T>, userOf?: (value: T) => number): Promise<T> {
    const now = Date.now();
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
    await this.store(name, value);
    return value;
  }

  /** Remembers a fresh answer, in Redis and here, for the TTL. */
  private async store(name: string, value: unknown): Promise<void> {
    const ttl = this.config.AUTH_CACHE_TTL_SECONDS;
    const until = Date.now() + ttl * 1000;
    await this.redis.set(`authcache:${digest(name)}`, JSON.stringify(value), 'EX', ttl);
    this.keep(name, value, until);
  }

  private keep(name: string, value: unknown, until: number): void {
    if (this.local.size >= LOCAL_ENTRIES) this.local.clear(); // crude but bounded; refilled from Redis
    this.local.set(name, { value, until });
  }
}

const LOCAL_ENTRIES = 100_000;
/**
 * A remembered answer in use is checked again in its last second (at most a quarter of its
 * TTL): a client long-polling while anything happens asks more often than that.
 */
const REFRESH_AHEAD_MS = 1000;
/** How long credentials asked for are gathered before they are checked together. */
const CHECK_GATHER_MS = 5;
/** The most credentials one `authenticate_many` checks (its schema's limit). */
const CHECKED_AT_ONCE = 1000;
type Credential = { email: string | null; apiKey: string };
type Holding = { host: string; authorization: string; polls: number };
/** What `hold` answers when there is nothing to hold. */
export const NOTHING_HELD = (): void => undefined;
type PendingCheck = { credential: Credential; within?: CommandTime; resolve: (identity: Identity) => void; reject: (error: unknown) => void };
/** Who a credential names: the organization, the user, and whether it may only send (an incoming webhook bot). */
export type Identity = { realm: RealmInfo; user: AuthUser; sendOnly?: boolean };
/** The name an email and API key are remembered under. */
const userKey = (host: string, email: string, apiKey: string) => `user:${host}\n${email}\n${apiKey}`;
/** How much later than another replica one may hear a revocation, at worst. */
const REVOCATION_MARGIN_MS = 5000;
/** Whether a failed check says no (the organization or the credential refused), rather than not answering. */
const refusedNow = (error: unknown) => error instanceof ZulipError && error.code !== 'SERVICE_UNAVAILABLE';
const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const revokedKey = (userId: number) => `authcache:revoked:${userId}`;

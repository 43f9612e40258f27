import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type RedisClient } from '@teamchat/platform';
import { UserPresenceRepository } from '../data/user-presence.repository';
import { PRESENCE } from './presence.settings';

/** One user's presence: Unix seconds (lastActive 0: never active) and the change's sequence number. */
export interface PresenceEntry {
  userId: number;
  lastActive: number;
  lastConnected: number;
  updateId: number;
}

/** What one report did. */
export interface PresenceUpdate {
  /** The user is new to presence or has come back online: the organization hears of it now. */
  announce: boolean;
  entry: PresenceEntry;
  /** Whether anything was written (a report within a minute of the last one writes nothing). */
  changed: boolean;
}

const NOT_LOADED = -2;

/**
 * Keys per organization, hash-tagged by it (one slot on a Redis Cluster, so one script reaches
 * all three): `presence:{<realm>}` (hash: user → "active,connected,updateId"),
 * `presence:{<realm>}:seq` (its last_update_id counter), `presence:{<realm>}:ids` (sorted set:
 * user by update id, for incremental reads). `presence:dirty` (a slot of its own) lists
 * "<realm>:<user>" changed since the last flush: added after the script that made the change,
 * and read back per organization by the flush, never inside a script. A missing counter means
 * Redis has not got the organization (new, or lost): the scripts answer NOT_LOADED and the
 * store loads it from Postgres first.
 *
 * UPDATE is Zulip's do_update_user_presence in one script: the times move only when 55 s newer,
 * each change takes the next sequence number, and it says whether the user came back online.
 */
const UPDATE = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {${NOT_LOADED}} end
local user = ARGV[1]
local now = tonumber(ARGV[2])
local active = ARGV[3] == '1'
local minFreq = tonumber(ARGV[4])
local cur = redis.call('HGET', KEYS[1], user)
local a, c, id = 0, 0, 0
local sinceActive, sinceConnected = 86400, 86400
if cur then
  local s1 = string.find(cur, ',', 1, true)
  local s2 = string.find(cur, ',', s1 + 1, true)
  a = tonumber(string.sub(cur, 1, s1 - 1))
  c = tonumber(string.sub(cur, s1 + 1, s2 - 1))
  id = tonumber(string.sub(cur, s2 + 1))
  if a > 0 then sinceActive = now - a end
  sinceConnected = now - c
end
local changed = false
if not cur then
  c = now
  if active then a = now end
  changed = true
else
  if sinceConnected > minFreq then c = now changed = true end
  if active and sinceActive > minFreq then
    a = now
    changed = true
    if now > c then c = now end
  end
end
if changed then
  id = redis.call('INCR', KEYS[2])
  redis.call('HSET', KEYS[1], user, a .. ',' .. c .. ',' .. id)
  redis.call('ZADD', KEYS[3], id, user)
end
local announce = (not cur) or (active and sinceActive > tonumber(ARGV[5]))
return {announce and 1 or 0, a, c, id, changed and 1 or 0}
`;

/** Sets a user's times outright (ARGV: user, active, connected), as a new change. */
const SET = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {${NOT_LOADED}} end
local id = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ',' .. ARGV[3] .. ',' .. id)
redis.call('ZADD', KEYS[3], id, ARGV[1])
return {id}
`;

/** Every entry (after 0 or less) or those changed after a sequence number, flattened user, value, … */
const READ = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {${NOT_LOADED}} end
local after = tonumber(ARGV[1])
if after <= 0 then return {0, redis.call('HGETALL', KEYS[1])} end
local users = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. after, '+inf')
local out = {}
-- HMGET in slices: unpack() of a very long list would overflow Lua's stack.
for first = 1, #users, 1000 do
  local last = math.min(first + 999, #users)
  local values = redis.call('HMGET', KEYS[1], unpack(users, first, last))
  for i = first, last do
    local value = values[i - first + 1]
    if value then out[#out + 1] = users[i] out[#out + 1] = value end
  end
end
return {0, out}
`;

/** Loads an organization from Postgres, unless another replica did meanwhile. ARGV: seq, JSON [[user, value, updateId], …]. */
const LOAD = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
for _, row in ipairs(cjson.decode(ARGV[2])) do
  redis.call('HSET', KEYS[1], row[1], row[2])
  redis.call('ZADD', KEYS[3], row[3], row[1])
end
return 1
`;

/** The scripts by command name, each with the organization's three keys (presenceKeys). */
export const PRESENCE_SCRIPTS = {
  presenceUpdate: { numberOfKeys: 3, lua: UPDATE },
  presenceRead: { numberOfKeys: 3, lua: READ },
  presenceSet: { numberOfKeys: 3, lua: SET },
  presenceLoad: { numberOfKeys: 3, lua: LOAD },
};

/** An organization's keys, as its scripts take them: the hash, the counter, the sorted set. */
export const presenceKeys = (realmId: number): [string, string, string] => [`presence:{${realmId}}`, `presence:{${realmId}}:seq`, `presence:{${realmId}}:ids`];

/** The users changed since the last flush, as `<realm>:<user>`. */
const DIRTY = 'presence:dirty';

type PresenceRedis = RedisClient & {
  presenceUpdate(k1: string, k2: string, k3: string, ...args: (string | number)[]): Promise<number[]>;
  presenceRead(k1: string, k2: string, k3: string, after: number): Promise<[number, string[]?]>;
  presenceSet(k1: string, k2: string, k3: string, ...args: (string | number)[]): Promise<number[]>;
  presenceLoad(k1: string, k2: string, k3: string, seq: number, entries: string): Promise<number>;
};

const parse = (userId: number, value: string): PresenceEntry => {
  const [lastActive, lastConnected, updateId] = value.split(',').map(Number);
  return { userId, lastActive, lastConnected, updateId };
};

/**
 * The live presence store (Redis): one script per report, one round trip per read. The durable
 * copy in Postgres (`user_presence`) is reached through its repository: written by the flush,
 * read back when Redis has lost an organization.
 */
@Injectable()
export class PresenceStore {
  private readonly redis: PresenceRedis;

  constructor(
    @Inject(REDIS) redis: RedisClient,
    private readonly durable: UserPresenceRepository,
  ) {
    this.redis = redis as PresenceRedis;
    if (!('presenceUpdate' in redis)) {
      for (const [name, script] of Object.entries(PRESENCE_SCRIPTS)) redis.defineCommand(name, script);
    }
  }

  private keys(realmId: number): [string, string, string] {
    return presenceKeys(realmId);
  }

  /**
   * Marks the user's entry for the next flush, after the script that changed it (the set is in
   * another slot than the organization's keys). A process that dies in between leaves the
   * change to be flushed with the user's next one; Redis still has it meanwhile.
   */
  private async markDirty(realmId: number, userId: number): Promise<void> {
    await this.redis.sadd(DIRTY, `${realmId}:${userId}`);
  }

  /** Records a report at `now` (Unix seconds). */
  async update(realmId: number, userId: number, now: number, active: boolean): Promise<PresenceUpdate> {
    for (;;) {
      const reply = await this.redis.presenceUpdate(
        ...this.keys(realmId),
        userId,
        now,
        active ? 1 : 0,
        PRESENCE.updateMinFrequencySeconds,
        PRESENCE.backOnlineAfterSeconds,
      );
      if (reply[0] === NOT_LOADED) {
        await this.load(realmId);
        continue;
      }
      const [announce, lastActive, lastConnected, updateId, changed] = reply;
      if (changed === 1) await this.markDirty(realmId, userId);
      return { announce: announce === 1, changed: changed === 1, entry: { userId, lastActive, lastConnected, updateId } };
    }
  }

  /** Sets a user's times outright (lastActive 0: never active), as a new change. */
  async setAt(realmId: number, userId: number, lastActive: number, lastConnected: number): Promise<PresenceEntry> {
    for (;;) {
      const [id] = await this.redis.presenceSet(...this.keys(realmId), userId, lastActive, lastConnected);
      if (id !== NOT_LOADED) {
        await this.markDirty(realmId, userId);
        return { userId, lastActive, lastConnected, updateId: id };
      }
      await this.load(realmId);
    }
  }

  /** Every entry of the organization (`after` ≤ 0), or those changed after the sequence number `after`. */
  async read(realmId: number, after: number): Promise<PresenceEntry[]> {
    for (;;) {
      const [status, flat = []] = await this.redis.presenceRead(...this.keys(realmId), after);
      if (status === NOT_LOADED) {
        await this.load(realmId);
        continue;
      }
      const entries: PresenceEntry[] = [];
      for (let i = 0; i < flat.length; i += 2) entries.push(parse(Number(flat[i]), flat[i + 1]));
      return entries;
    }
  }

  /** One user's entry, if they ever reported presence. */
  async find(realmId: number, userId: number): Promise<PresenceEntry | null> {
    const [key] = this.keys(realmId);
    let value = await this.redis.hget(key, String(userId));
    if (value === null && (await this.redis.exists(this.keys(realmId)[1])) === 0) {
      await this.load(realmId);
      value = await this.redis.hget(key, String(userId));
    }
    return value === null ? null : parse(userId, value);
  }

  /** Puts an organization's flushed presence back into Redis (a no-op when a replica did first). */
  private async load(realmId: number): Promise<void> {
    const rows = await this.durable.ofRealm(realmId);
    const highest = rows.reduce((max, row) => Math.max(max, Number(row.lastUpdateId)), 0);
    const seq = highest + PRESENCE.restoreSequenceGap;
    const entries = rows.map((row) => [String(row.userId), `${row.lastActive},${row.lastConnected},${row.lastUpdateId}`, row.lastUpdateId]);
    await this.redis.presenceLoad(...this.keys(realmId), seq, JSON.stringify(entries));
  }

  /**
   * Writes what changed since the last flush to Postgres, a batch at a time; a batch that cannot
   * be written goes back to the changed set. Returns how many users were written.
   */
  async flush(): Promise<number> {
    let written = 0;
    for (;;) {
      const flat = await this.takeDirty();
      if (flat.length === 0) return written;
      const users: number[] = [], realms: number[] = [], active: number[] = [], connected: number[] = [], ids: string[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const [realmId, userId] = flat[i].split(':').map(Number);
        const entry = parse(userId, flat[i + 1]);
        users.push(userId);
        realms.push(realmId);
        active.push(entry.lastActive);
        connected.push(entry.lastConnected);
        ids.push(String(entry.updateId));
      }
      try {
        await this.durable.save({ userIds: users, realmIds: realms, lastActive: active, lastConnected: connected, updateIds: ids });
      } catch (error) {
        const members = flat.filter((_, i) => i % 2 === 0);
        await this.redis.sadd(DIRTY, ...members);
        throw error;
      }
      written += users.length;
      if (flat.length / 2 < PRESENCE.flushBatch) return written;
    }
  }

  /**
   * Up to a batch of changed users with their values, flattened (`<realm>:<user>`, value, …).
   * Each value is read after its member is taken, each from its organization's slot: a change
   * made in between is read too (and marked again, so flushed again: harmless).
   */
  private async takeDirty(): Promise<string[]> {
    const members = await this.redis.spop(DIRTY, PRESENCE.flushBatch);
    const values = await Promise.all(
      members.map((member) => {
        const [realmId, userId] = member.split(':');
        return this.redis.hget(this.keys(Number(realmId))[0], userId);
      }),
    );
    return members.flatMap((member, index) => (values[index] === null ? [] : [member, values[index]!]));
  }
}

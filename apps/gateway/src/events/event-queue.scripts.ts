import type { RedisClient } from '@teamchat/platform';
import type { ChainableCommander } from 'ioredis';

/*
 * The event queue store's Lua scripts (see EventQueueStore), each run atomically by Redis by
 * its SHA (defineCommand, EVALSHA).
 */

/**
 * Appends a batch of events atomically. Every key it touches is declared, all in one hash slot
 * (the fan-out partition's, see EventQueueKeys): KEYS[1] the partition's lease, then each
 * queue's hash and list (KEYS[2q], KEYS[2q + 1] for queue q), then the once-keys of the events
 * that have one. ARGV: the lease holder's token ('' for an append not under the lease), the wake
 * channel, the number of queues and their ids (in KEYS order), the number of texts and the texts
 * (each once: a message's text is the same for most of its recipients), the number of events and
 * each event's once-key number (0 for none), then the number of groups and each group (how many
 * (event number, text number) pairs it has, then the pairs, in order), then each queue's group:
 * queues that get the same events of the batch (most of a message's recipients) share one;
 * last, the index versions the events were routed at (values, then their number; their keys
 * last in KEYS): if one has changed, nothing is appended and the answer is 'stale'.
 * An event whose once-key is already set (a redelivered domain event) appends nothing. Each
 * queue that still exists gets its events of the batch in order, in one RPUSH, under the next
 * ids of its own counter. Returns the queues appended to and the ones that are gone. Under the
 * lease it appends nothing once the lease is someone else's, so a replica that lost it can
 * never append out of turn.
 *
 * A list holds the texts as they came, without their ids: its ids are the queue's last ones
 * (a list always ends at the queue's `last`, and only DROP_THROUGH takes from its head), so a
 * group's texts go to each of its queues as they are, where writing each queue's own copy with
 * its id in was most of the script's time (TAKE writes the ids in as it reads). Lists written
 * before held `{"id":…,` texts; TAKE passes those on as they are (a queue lives a week at most,
 * so that check can go a week after every replica runs this).
 *
 * Every replica hears the whole batch in one message on the wake channel (see WAKE_APPENDED in
 * event-queue.store.ts): the replica holding a queue's long-poll answers it from memory
 * (QueueMirror), once for all of the batch's events.
 */
const APPEND = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'fenced' end
local checks = tonumber(ARGV[#ARGV])
for c = 1, checks do
  if (redis.call('GET', KEYS[#KEYS - checks + c]) or '') ~= ARGV[#ARGV - checks + c - 1] then return 'stale' end
end
local queues = tonumber(ARGV[3])
local text_at = 4 + queues
local texts = tonumber(ARGV[text_at])
local events_at = text_at + texts + 1
local events = tonumber(ARGV[events_at])
local once_at = 1 + 2 * queues
local fresh = {}
for e = 1, events do
  local once = tonumber(ARGV[events_at + e])
  fresh[e] = once == 0 or redis.call('SET', KEYS[once_at + once], '1', 'NX', 'EX', 86400)
end
local at = events_at + events + 1
local groups = tonumber(ARGV[at])
at = at + 1
-- Each group's texts, of its fresh events only, gathered once for all of its queues.
local items, numbers = {}, {}
for g = 1, groups do
  local count = tonumber(ARGV[at])
  local mine, chosen = {}, {}
  for i = at + 1, at + 2 * count, 2 do
    if fresh[tonumber(ARGV[i])] then
      mine[#mine + 1] = ARGV[text_at + tonumber(ARGV[i + 1])]
      chosen[#chosen + 1] = ARGV[i + 1]
    end
  end
  items[g], numbers[g] = mine, table.concat(chosen, ' ')
  at = at + 1 + 2 * count
end
local appended, gone, heard = {}, {}, {}
for q = 1, queues do
  local g = tonumber(ARGV[at + q - 1])
  local mine = items[g]
  if #mine > 0 then
    local id, meta, list = ARGV[3 + q], KEYS[2 * q], KEYS[2 * q + 1]
    local first = redis.call('HINCRBY', meta, 'last', #mine) - #mine + 1
    -- A queue gone (expired, deleted) got a new hash of that one field, as a queue whose last
    -- id was 0 would answer: only then is its owner looked for (one call, not one per queue).
    if first == 1 and redis.call('HEXISTS', meta, 'o') == 0 then
      redis.call('DEL', meta)
      gone[#gone + 1] = id
    else
      local length = 0
      -- In slices: unpack puts every value on Lua's stack.
      for from = 1, #mine, 500 do
        length = redis.call('RPUSH', list, unpack(mine, from, math.min(from + 499, #mine)))
      end
      -- A new list takes the queue's remaining time; polls keep the two in step after that.
      if length == #mine then
        local ttl = redis.call('PTTL', meta)
        if ttl > 0 then redis.call('PEXPIRE', list, ttl) end
      end
      appended[#appended + 1] = id
      heard[#heard + 1] = id .. ' ' .. first .. ' ' .. g
    end
  end
end
if #appended > 0 then
  redis.call('PUBLISH', ARGV[2], 'A\\n' .. texts .. '\\n' .. table.concat(ARGV, '\\n', text_at + 1, text_at + texts) .. '\\n' .. groups .. '\\n' .. table.concat(numbers, '\\n') .. '\\n' .. table.concat(heard, '\\n'))
end
return {appended, gone}
`;

/**
 * Drops a queue's events up to id `through` (acknowledged by its client) and records them pruned.
 * A list holds the queue's ids `last - length + 1` to `last` (APPEND pushes each batch under the
 * queue's next ids, and only this drops any), so one LTRIM drops them, where popping one event
 * at a time cost Redis two calls per event.
 */
const DROP_THROUGH = `
local function drop_through(list, meta, through, last)
  local count = through - last + redis.call('LLEN', list)
  if count > 0 then redis.call('LTRIM', list, count, -1) end
  redis.call('HSET', meta, 'pruned', through)
end
`;

/**
 * One poll in one step: checks that the queue exists and is the caller's, drops the events
 * the client acknowledged (ids up to ARGV[2]), returns the rest, and restarts the idle timer
 * (held off by ARGV[4] more seconds when nothing is pending and the client will wait). Answers
 * the events, the newest id given and the queue's lifespan. Refusals: 'gone', or 'pruned'/'unknown' with Zulip's reasons.
 */
const TAKE = `${DROP_THROUGH}
local meta, list = KEYS[1], KEYS[2]
local fields = redis.call('HMGET', meta, 'o', 'last', 'pruned', 'l')
if not fields[1] or fields[1] ~= ARGV[1] then return {'gone'} end
local through, last, pruned = tonumber(ARGV[2]), tonumber(fields[2]), tonumber(fields[3])
if through > last then return {'unknown', tostring(through)} end
if through < pruned then return {'pruned', tostring(pruned)} end
if through > pruned then drop_through(list, meta, through, last) end
local events = redis.call('LRANGE', list, 0, -1)
-- The ids, written in as the events go out (see APPEND); a text stored with its id goes as it is.
local head = last - #events + 1
for i = 1, #events do
  if string.sub(events[i], 1, 6) ~= '{"id":' then events[i] = '{"id":' .. (head + i - 1) .. ',' .. string.sub(events[i], 2) end
end
local ttl = tonumber(fields[4])
if #events == 0 and ARGV[3] == '1' then ttl = ttl + tonumber(ARGV[4]) end
redis.call('EXPIRE', meta, ttl)
if #events > 0 then redis.call('EXPIRE', list, ttl) end
return {'ok', events, last, tonumber(fields[4])}
`;

/**
 * Acknowledgements a replica answered from memory (QueueMirror), written back in batches, any
 * number of queues of one partition (one slot) at once: queue q's hash and list are
 * KEYS[2q - 1] and KEYS[2q], its acknowledgement ARGV[2q - 1] and its hold ARGV[2q]. For each,
 * drops the events up to the acknowledgement (if newer than what was pruned) and restarts the
 * idle timer, held off by the hold's seconds for a poll that is waiting. Answers, per queue, 0
 * when it is gone and 1 otherwise.
 */
const ACKNOWLEDGE = `${DROP_THROUGH}
local kept = {}
for q = 1, #KEYS / 2 do
  local meta, list = KEYS[2 * q - 1], KEYS[2 * q]
  local fields = redis.call('HMGET', meta, 'pruned', 'l', 'last')
  if fields[2] then
    local through, pruned = tonumber(ARGV[2 * q - 1]), tonumber(fields[1])
    if through > pruned then drop_through(list, meta, through, tonumber(fields[3])) end
    local ttl = tonumber(fields[2]) + tonumber(ARGV[2 * q])
    redis.call('EXPIRE', meta, ttl)
    redis.call('EXPIRE', list, ttl)
    kept[q] = 1
  else
    kept[q] = 0
  end
end
return kept
`;

/**
 * Adds queue ARGV[2] to user ARGV[1]'s entry of the organization's index (KEYS[1]), dropping
 * the entry's queues that have expired meanwhile. The caller read the entry first (ARGV[3]) and
 * declares the hashes of its queues (KEYS[2…], their ids ARGV[4…]); if the entry changed since,
 * nothing is dropped this time (the next registration or append does it).
 */
const INDEX_ADD = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local kept = {}
if current == ARGV[3] then
  for i = 4, #ARGV do
    if redis.call('EXISTS', KEYS[i - 2]) == 1 then kept[#kept + 1] = ARGV[i] end
  end
else
  for queue in string.gmatch(current, '%S+') do kept[#kept + 1] = queue end
end
kept[#kept + 1] = ARGV[2]
redis.call('HSET', KEYS[1], ARGV[1], table.concat(kept, ' '))
`;

/** Removes queue ARGV[2] from user ARGV[1]'s entry of the organization's index (KEYS[1]). */
const INDEX_REMOVE = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local kept = {}
for queue in string.gmatch(current, '%S+') do
  if queue ~= ARGV[2] then kept[#kept + 1] = queue end
end
if #kept == 0 then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], table.concat(kept, ' ')) end
return 1
`;

/** Makes the lease KEYS[1] ARGV[1]'s for ARGV[2] more milliseconds, if it is still theirs. */
const LEASE_RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

/** Ends the lease KEYS[1] if it is still ARGV[1]'s. */
const LEASE_RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
`;

/**
 * The store's scripts by command name, with how many of their arguments are keys; a script
 * whose number varies (none given) takes it as its first argument.
 */
export const SCRIPTS = {
  eqAppend: { lua: APPEND },
  eqLeaseRenew: { numberOfKeys: 1, lua: LEASE_RENEW },
  eqLeaseRelease: { numberOfKeys: 1, lua: LEASE_RELEASE },
  eqTake: { numberOfKeys: 2, lua: TAKE },
  eqAcknowledge: { lua: ACKNOWLEDGE },
  eqIndexAdd: { lua: INDEX_ADD },
  eqIndexRemove: { numberOfKeys: 1, lua: INDEX_REMOVE },
} satisfies Record<string, { numberOfKeys?: number; lua: string }>;

export type ScriptName = keyof typeof SCRIPTS;

/** Runs a script `defineCommand` gave the connection a method for, on it or on one of its pipelines. */
export function runScript<T extends RedisClient | ChainableCommander>(target: T, name: ScriptName, ...args: (string | number)[]): T extends RedisClient ? Promise<unknown> : ChainableCommander {
  return (target as unknown as Record<string, (...values: (string | number)[]) => never>)[name](...args);
}

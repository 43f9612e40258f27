import calculateSlot from 'cluster-key-slot';
import type { Cluster, Redis } from 'ioredis';

/** One run of a traced script: the keys it declared and every command it called. */
export interface ScriptRun {
  script: string;
  keys: string[];
  calls: (string | number)[][];
}

/**
 * Records what scripts touch, to hold them to Redis Cluster's rules: defines each script again
 * on `redis` with its text wrapped so that every `redis.call` is noted, and the run (declared
 * KEYS, calls) published on `channel` when it ends, outside the notes. Pipelines and
 * transactions made from `redis` afterwards run the traced scripts too.
 */
export function traceScripts(redis: Redis | Cluster, scripts: Record<string, { numberOfKeys?: number; lua: string }>, channel: string): void {
  for (const [name, { numberOfKeys, lua }] of Object.entries(scripts)) {
    const traced = `
local traced_calls = {}
local real_redis = redis
local redis = setmetatable({ call = function(...) traced_calls[#traced_calls + 1] = { ... }; return real_redis.call(...) end }, { __index = real_redis })
local traced_result = (function()
${lua}
end)()
real_redis.call('PUBLISH', '${channel}', cjson.encode({ script = '${name}', keys = KEYS, calls = traced_calls }))
return traced_result
`;
    redis.defineCommand(name, numberOfKeys === undefined ? { lua: traced } : { numberOfKeys, lua: traced });
  }
}

/** Collects the runs published on `channel` (see traceScripts) until `stop`. */
export async function collectScriptRuns(subscriber: Redis, channel: string): Promise<{ runs: ScriptRun[]; stop: () => Promise<void> }> {
  const runs: ScriptRun[] = [];
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const run = JSON.parse(message) as { script: string; keys: string[] | Record<string, never>; calls: (string | number)[][] | Record<string, never> };
    // cjson writes an empty table as an object.
    runs.push({ script: run.script, keys: Array.isArray(run.keys) ? run.keys : [], calls: Array.isArray(run.calls) ? run.calls : [] });
  });
  await subscriber.subscribe(channel);
  return { runs, stop: async () => void (await subscriber.unsubscribe(channel)) };
}

/**
 * What breaks Redis Cluster's rules in these runs: a command on a key the script did not declare
 * in KEYS, or declared keys in more than one hash slot. Which arguments of a command are keys
 * Redis says itself (COMMAND GETKEYS). Empty when all is well.
 */
export async function clusterViolations(redis: Redis, runs: ScriptRun[]): Promise<string[]> {
  const problems: string[] = [];
  for (const run of runs) {
    const slots = new Set(run.keys.map((key) => calculateSlot(key)));
    if (slots.size > 1) problems.push(`${run.script}: keys in ${slots.size} slots: ${run.keys.join(', ')}`);
    const declared = new Set(run.keys);
    for (const call of run.calls) {
      const touched = ((await redis.call('COMMAND', 'GETKEYS', ...call).catch(() => [])) as string[]) ?? [];
      for (const key of touched) if (!declared.has(key)) problems.push(`${run.script}: ${String(call[0])} on undeclared key ${key}`);
    }
  }
  return problems;
}

import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { dropTestDatabase } from './databases';
import { TEST_REDIS_URL, templateDatabase } from './test-environment';

// Only relative and package imports here: the global teardown, which Jest loads without the
// @teamchat/* path mapping, stops the systems this file has written down.

/** What a test system made, for removing it: its settings, database, event stream and processes. */
export interface SystemRecord {
  env: Record<string, string>;
  database: string;
  stream: string;
  pids: number[];
}

/**
 * Every running system of a Jest run is written down under a folder of the run's, so that the
 * global teardown stops what no file stopped: systems handed on to a next file (TestSystem.start),
 * those of a worker process Jest ended, and a crashed file's.
 */
const recordsFolder = (): string => path.join(os.tmpdir(), `${templateDatabase()}-systems`);
const recordFile = (env: Record<string, string>): string => path.join(recordsFolder(), `${env.REDIS_KEY_PREFIX.replace(/\W/g, '_')}.json`);

export function recordSystem(record: SystemRecord): void {
  if (process.env.JEST_WORKER_ID === undefined) return; // a benchmark stops its own
  mkdirSync(recordsFolder(), { recursive: true });
  writeFileSync(recordFile(record.env), JSON.stringify(record));
}

/**
 * Removes what a stopped system made: its event stream, Redis keys, database, uploads and
 * record. Each step is tried whatever the others did (a file's own NATS cluster may be gone by
 * now); the first failure is thrown at the end, once the record is removed.
 */
export async function removeSystem({ env, database, stream }: Omit<SystemRecord, 'pids'>): Promise<void> {
  const failures: unknown[] = [];
  const attempt = (step: Promise<unknown>) => step.catch((error: unknown) => void failures.push(error));
  await attempt(deleteStream(env.NATS_URL, stream));
  await attempt(deleteRedisKeys(env.REDIS_KEY_PREFIX));
  await attempt(dropTestDatabase(database));
  await attempt(rm(env.LOCAL_UPLOADS_DIR, { recursive: true, force: true }));
  rmSync(recordFile(env), { force: true });
  if (failures.length > 0) throw failures[0];
}

/** Stops and removes every system the run's records name (the global teardown). */
export async function stopRecordedSystems(): Promise<void> {
  let files: string[];
  try {
    files = readdirSync(recordsFolder());
  } catch {
    return; // none was started
  }
  const records = files.map((file) => JSON.parse(readFileSync(path.join(recordsFolder(), file), 'utf8')) as SystemRecord);
  // Every process first, so that nothing outlives the run whatever a removal below does.
  const running = records.flatMap((record) => record.pids).filter(isAlive);
  for (const pid of running) process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && running.some(isAlive); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of running.filter(isAlive)) process.kill(pid, 'SIGKILL');
  for (const record of records) {
    // What cannot be removed (a file's own NATS cluster, stopped with the file) is left, and said.
    await removeSystem(record).catch((error: unknown) => process.stderr.write(`test system ${record.env.REDIS_KEY_PREFIX} not wholly removed: ${String(error)}\n`));
  }
  rmSync(recordsFolder(), { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes a JetStream stream, if it is there. */
export async function deleteStream(natsUrl: string, streamName: string): Promise<void> {
  const connection = await connect({ servers: natsUrl });
  try {
    const manager = await connection.jetstreamManager();
    await manager.streams.delete(streamName).catch(() => undefined);
  } finally {
    await connection.drain();
  }
}

/** Removes a test system's Redis keys (queues, caches, BullMQ jobs), all under `prefix`. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

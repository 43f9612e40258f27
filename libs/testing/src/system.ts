import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { appendFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { SERVICES, eventStreamName, type ServiceName } from '@teamchat/contracts';
import { PgService, openPrisma, type PrismaService } from '@teamchat/db';
import { nodeOptionsOf } from '@teamchat/platform';
import { createTestDatabase, emptyTestDatabase } from './databases';
import { ApiClient } from './api-client';
import { EventRecorder } from './event-recorder';
import { deleteRedisKeys, recordSystem, removeSystem } from './system-records';
import { TEST_NATS_URL, TEST_REDIS_URL, TEST_ROOT_HOST, workspaceRoot } from './test-environment';

const root = workspaceRoot();

export interface SystemOptions {
  /** Extra environment for every process (e.g. RATE_LIMIT_ENABLED=true). */
  env?: Record<string, string>;
  /** How many gateway processes to run side by side (replica 0 is `api`'s). Default 1. */
  gateways?: number;
  /** Extra node options for every process (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** The services `nodeArgs` reach, when not all (a profile of one service disturbs the others less). */
  nodeArgsServices?: string[];
  /**
   * DATABASE_REPLICA_URL: the test database again, under the application name
   * `teamchat-replica`, so a test can see which statements went to "the replica".
   */
  readReplica?: boolean;
  /** How the services reach the test database (e.g. through a PgBouncer: PgBouncer.via); the harness's own client connects directly. */
  databaseVia?: (url: string) => string;
}

/** The application name of the connections a `readReplica` system makes to its "replica". */
export const REPLICA_APPLICATION_NAME = 'teamchat-replica';

/** A process of the system: a service, or `<service>#<n>` for its n-th extra replica. */
export type ProcessName = ServiceName | `${ServiceName}#${number}`;

/**
 * Ports for the services, drawn below Linux's ephemeral range (32768–60999). A port the kernel
 * picks (listen on 0) lies in that range, which outgoing connections draw from too: between the
 * pick and the service's own listen, a client socket could take it (seen as EADDRINUSE).
 * Outside the range only another test process can, so each pick is random and checked free.
 */
const PORTS = { low: 10000, high: 30000 };
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORTS.low + Math.floor(Math.random() * (PORTS.high - PORTS.low));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${PORTS.low} and ${PORTS.high}`);
}

/** Whether a service could listen on `port` now (the services listen on every address). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/**
 * The whole system as real processes, built from dist/, against real Postgres, Redis and NATS.
 * Each instance has its own database, NATS subject namespace and Redis key prefix, so test
 * files never see each other's data or commands.
 */
export class TestSystem {
  readonly api: ApiClient;
  readonly db: PrismaService;
  readonly env: Record<string, string>;
  private readonly processes = new Map<ProcessName, ChildProcess>();
  private readonly logs = new Map<ProcessName, string[]>();
  private readonly recorders: EventRecorder[] = [];
  /** Settings of one process only (an extra uploads replica's own file listener port). */
  private readonly processEnv = new Map<ProcessName, Record<string, string>>();
  private pgService?: PgService;
  /** Whether the next test file may take this system up after this one (see TestSystem.start). */
  private keepable = false;

  private constructor(
    private readonly database: { name: string; url: string },
    env: Record<string, string>,
    readonly ports: Record<ProcessName, number>,
    readonly gatewayNames: ProcessName[],
    private readonly nodeArgs: string[] = [],
    private readonly nodeArgsServices?: string[],
  ) {
    this.env = env;
    this.api = new ApiClient(`http://127.0.0.1:${ports.gateway}`, TEST_ROOT_HOST);
    this.db = openPrisma(database.url);
  }

  /** The test database through pg, as the services' repositories reach it (opened on first use). */
  get pg(): PgService {
    return (this.pgService ??= new PgService(this.database.url));
  }

  /**
   * A system of its own for a test file. Inside Jest, a file that asks for the ordinary system
   * (no options, or only settings it has already) takes up the one an earlier file of its Jest process handed back, if any: its
   * processes still running, its database emptied (every table truncated; the sequences go on,
   * so no id is handed out twice and nothing a service remembers by id can be taken for the new
   * file's), its logs, recorders and clients new. Starting seven processes costs 5–6 s of a
   * busy 2-core machine, most of a small file's time. A file that stops, starts or adds a
   * process, or deletes Redis keys, hands back nothing: its system is stopped.
   */
  static async start(options: SystemOptions = {}): Promise<TestSystem> {
    const startedAt = Date.now();
    const keepable = process.env.JEST_WORKER_ID !== undefined && isOrdinary(options);
    const kept = keepable ? await takeKeptSystem() : undefined;
    if (kept) {
      const system = new TestSystem(kept.database, kept.env, kept.ports, kept.gatewayNames);
      for (const [name, child] of kept.processes) system.watch(name, child);
      system.keepable = true;
      await system.waitUntilReady();
      recordTiming('start', startedAt);
      return system;
    }
    const database = await createTestDatabase();
    const namespace = randomBytes(4).toString('hex');
    const gatewayNames: ProcessName[] = ['gateway'];
    for (let replica = 1; replica < (options.gateways ?? 1); replica++) gatewayNames.push(`gateway#${replica}`);
    const names: ProcessName[] = [...SERVICES, ...gatewayNames.slice(1)];
    const ports = Object.fromEntries(await Promise.all(names.map(async (s) => [s, await freePort()]))) as Record<ProcessName, number>;
    const uploadsHttpPort = await freePort();
    const env = {
      UPLOADS_HTTP_PORT: String(uploadsHttpPort),
      UPLOADS_URL: `http://127.0.0.1:${uploadsHttpPort}`,
      LOCAL_UPLOADS_DIR: path.join(os.tmpdir(), `teamchat-uploads-${namespace}`),
      DATABASE_URL: options.databaseVia ? options.databaseVia(database.url) : database.url,
      ...(options.readReplica ? { DATABASE_REPLICA_URL: `${database.url}?application_name=${REPLICA_APPLICATION_NAME}` } : {}),
      REDIS_URL: TEST_REDIS_URL,
      NATS_URL: TEST_NATS_URL,
      NATS_SUBJECT_PREFIX: `t${namespace}.`,
      REDIS_KEY_PREFIX: `test:${namespace}:`,
      EXTERNAL_URL: `http://${TEST_ROOT_HOST}`,
      ...ORDINARY_SETTINGS,
      ...options.env,
    };
    const system = new TestSystem(database, env, ports, gatewayNames, options.nodeArgs ?? [], options.nodeArgsServices);
    system.keepable = keepable;
    names.forEach((name) => system.spawn(name));
    try {
      await system.waitUntilReady();
      recordTiming('start', startedAt);
    } catch (error) {
      // No test will get the system to stop it: stop it here, so no process outlives the run.
      await system.stop().catch(() => undefined);
      throw error;
    }
    return system;
  }

  /** A client of one gateway replica (0 is `api`'s). */
  apiVia(replica: number): ApiClient {
    return new ApiClient(`http://127.0.0.1:${this.ports[this.gatewayNames[replica]]}`, TEST_ROOT_HOST);
  }

  /** The process id of each running service process (for benchmarks' CPU accounting). */
  pids(): Map<ProcessName, number> {
    const pids = new Map<ProcessName, number>();
    for (const [name, child] of this.processes) if (child.pid !== undefined && child.exitCode === null) pids.set(name, child.pid);
    return pids;
  }

  /** Starts one process (again), and by default waits until the gateways are ready; `env` adds settings for this process only. */
  async startService(name: ProcessName, waitForReady = true, env?: Record<string, string>): Promise<void> {
    this.keepable = false;
    if (env) this.processEnv.set(name, { ...this.processEnv.get(name), ...env });
    this.spawn(name);
    // A process started again is waited for itself too: a test's next request may need it.
    if (waitForReady) await this.waitUntilReady(undefined, [name]);
  }

  private spawn(name: ProcessName): void {
    const service = name.split('#')[0] as ServiceName;
    const portVariable = service === 'gateway' ? 'GATEWAY_PORT' : 'HEALTH_PORT';
    const nodeArgs = !this.nodeArgsServices || this.nodeArgsServices.includes(service) ? this.nodeArgs : [];
    const child = spawn(process.execPath, [...nodeOptionsOf(service), ...nodeArgs, path.join(root, 'dist/apps', service, 'src/main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...this.env, ...this.processEnv.get(name), [portVariable]: String(this.ports[name]) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.watch(name, child);
    recordSystem({ ...remainsOf({ database: this.database, env: this.env }), pids: [...this.pids().values()] });
  }

  /** Makes `child` this system's process `name`, its last log lines kept for logOf (an earlier file's listeners dropped). */
  private watch(name: ProcessName, child: ChildProcess): void {
    const log: string[] = [];
    this.logs.set(name, log);
    const keep = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.length > 200) log.shift();
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.removeAllListeners('data');
      stream?.on('data', keep);
    }
    this.processes.set(name, child);
  }

  /** Starts one more replica of a service (`<service>#<n>`), beside the ones running; gateways only through `gateways`. */
  async startReplica(service: Exclude<ServiceName, 'gateway'>): Promise<ProcessName> {
    this.keepable = false;
    let replica = 1;
    while (this.processes.has(`${service}#${replica}`)) replica++;
    const name: ProcessName = `${service}#${replica}`;
    this.ports[name] = await freePort();
    // Replicas share a host here, not an address: each uploads replica listens on a port of its
    // own (the gateways keep sending file requests to UPLOADS_URL, the first replica).
    if (service === 'uploads') this.processEnv.set(name, { UPLOADS_HTTP_PORT: String(await freePort()) });
    await this.startService(name);
    return name;
  }

  /** Deletes this system's Redis keys under `<REDIS_KEY_PREFIX><suffix>` (e.g. `bull:` for every BullMQ job). */
  deleteRedisKeys(suffix: string): Promise<void> {
    this.keepable = false;
    return deleteRedisKeys(`${this.env.REDIS_KEY_PREFIX}${suffix}`);
  }

  /** Stops one process with SIGTERM (or `signal`) and waits for it to exit. */
  async stopService(name: ProcessName, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    this.keepable = false;
    const child = this.processes.get(name);
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    const code = await terminate(child, signal);
    this.processes.delete(name);
    return code;
  }

  logOf(name: ProcessName): string {
    return (this.logs.get(name) ?? []).join('');
  }

  // Generous: seven processes starting at once on a 2-core machine that is busy with other test files.
  /**
   * Waits until the gateways (and the processes in `also`) answer ready on /health/ready (the
   * other services need not be: a test may have one down on purpose). As long as a slow machine needs, within the test hook's own
   * limit (a fresh-clone CI run beside a running system took over 30 s), so that a failure is
   * ours and says which processes were not ready, what they answered and their last log lines.
   */
  async waitUntilReady(timeoutMs = 100_000, also: ProcessName[] = []): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const answers = new Map<ProcessName, string>();
    const ready = async (name: ProcessName) => {
      try {
        const res = await fetch(`http://127.0.0.1:${this.ports[name]}/health/ready`, { signal: AbortSignal.timeout(3000) });
        answers.set(name, `${res.status} ${await res.text()}`);
        return res.status === 200;
      } catch (error) {
        answers.set(name, String(error));
        return false;
      }
    };
    while (Date.now() < deadline) {
      const running = [...new Set([...this.gatewayNames, ...also])].filter((name) => this.processes.has(name));
      if ((await Promise.all(running.map(ready))).every(Boolean)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Every process's state, to name the one holding the system up.
    const states = [...this.processes.keys()];
    const readiness = await Promise.all(states.map(ready));
    const waiting = states.filter((_, index) => !readiness[index]);
    const detail = waiting.map((name) => `${name}: ${answers.get(name) ?? 'no answer'}\n--- ${name} log\n${this.logOf(name).slice(-2000)}`).join('\n');
    throw new Error(`System not ready after ${timeoutMs} ms; not ready: ${waiting.join(', ') || 'none by now'}\n${detail}`);
  }

  /** Starts recording this system's domain events (stopped with the system). */
  async recordEvents(): Promise<EventRecorder> {
    const recorder = await EventRecorder.start(this.env.NATS_URL, this.env.NATS_SUBJECT_PREFIX);
    this.recorders.push(recorder);
    return recorder;
  }

  /** Stops the system, or empties it and hands it to the next test file (see TestSystem.start). */
  async stop(): Promise<void> {
    const stoppingAt = Date.now();
    await Promise.all(this.recorders.map((recorder) => recorder.stop()));
    await this.db.$disconnect();
    await this.pgService?.onApplicationShutdown();
    if (this.keepable && (await this.empty())) {
      keptSystems().push({ database: this.database, env: this.env, ports: this.ports, gatewayNames: this.gatewayNames, processes: this.processes, emptiedAt: Date.now() });
    } else {
      await stopAndRemove({ database: this.database, env: this.env, processes: this.processes });
    }
    recordTiming('stop', stoppingAt);
  }

  /** Empties the database and the uploads, with every process still running; false if any is not (or Postgres refused). */
  private async empty(): Promise<boolean> {
    if (![...this.processes.values()].every(isRunning)) return false;
    try {
      await emptyTestDatabase(this.database.url);
    } catch {
      return false;
    }
    await rm(this.env.LOCAL_UPLOADS_DIR, { recursive: true, force: true });
    return true;
  }
}

/** The settings every test system runs with, unless a file's options say otherwise. */
const ORDINARY_SETTINGS: Record<string, string> = {
  RATE_LIMIT_ENABLED: 'false',
  AUTH_CACHE_TTL_SECONDS: '1',
  // Tests change the database behind the services' backs (factories), which no event tells
  // messaging's send-context cache about; send-context-cache.spec turns it on.
  SEND_CONTEXT_CACHE_SECONDS: '0',
  // The same for the gateway's cache of each organization's people (POST /register);
  // register-people-cache.spec turns it on.
  REGISTER_CACHE_MAX_AGE_SECONDS: '0',
  SHUTDOWN_GRACE_SECONDS: '0',
  // Two test files run side by side, each with six processes that own tables: smaller pools
  // keep them within the machine's Postgres connection limit (pools open connections only as needed).
  DATABASE_POOL_SIZE: '5',
  DATABASE_COLD_POOL_SIZE: '4',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
};

/** Whether `options` ask for the ordinary system: nothing but settings it has already. */
function isOrdinary(options: SystemOptions): boolean {
  const { env = {}, ...others } = options;
  return Object.keys(others).length === 0 && Object.entries(env).every(([name, value]) => ORDINARY_SETTINGS[name] === value);
}

const isRunning = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/** A system a test file handed back, for the next file of its Jest process (TestSystem.start). */
interface KeptSystem {
  database: { name: string; url: string };
  env: Record<string, string>;
  ports: Record<ProcessName, number>;
  gatewayNames: ProcessName[];
  processes: Map<ProcessName, ChildProcess>;
  emptiedAt: number;
}

/**
 * The systems handed back in this process. Jest gives each test file its own globals and module
 * registry, but Node's own modules are the process's: the list hangs on `spawn`.
 */
function keptSystems(): KeptSystem[] {
  const holder = spawn as unknown as Record<symbol, KeptSystem[] | undefined>;
  return (holder[Symbol.for('teamchat.keptTestSystems')] ??= []);
}

/**
 * A kept system whose processes all still run (any other is stopped), once what its services
 * remembered of the last file's organizations has run out: the credential cache remembers a
 * host's organization for AUTH_CACHE_TTL_SECONDS, and the next file may make one at that host.
 */
async function takeKeptSystem(): Promise<KeptSystem | undefined> {
  const kept = keptSystems();
  for (let system = kept.shift(); system; system = kept.shift()) {
    if (![...system.processes.values()].every(isRunning)) {
      await stopAndRemove(system);
      continue;
    }
    const forgotten = system.emptiedAt + Number(system.env.AUTH_CACHE_TTL_SECONDS) * 1000 + 100;
    if (Date.now() < forgotten) await new Promise((resolve) => setTimeout(resolve, forgotten - Date.now()));
    return system;
  }
  return undefined;
}

type RunningSystem = Pick<KeptSystem, 'database' | 'env' | 'processes'>;

/** Stops a system's processes and removes everything it made: its stream, Redis keys, database and uploads. */
async function stopAndRemove(system: RunningSystem): Promise<void> {
  await Promise.all([...system.processes.values()].filter(isRunning).map((child) => terminate(child)));
  await removeSystem(remainsOf(system));
}

/** What a system leaves to remove once stopped (see system-records). */
const remainsOf = (system: Pick<RunningSystem, 'database' | 'env'>) => ({
  env: system.env,
  database: system.database.name,
  stream: eventStreamName(system.env.NATS_SUBJECT_PREFIX),
});

/** Signals a running process and waits for it to exit; its exit code. */
function terminate(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}

/**
 * With TEAMCHAT_TEST_TIMINGS set to a file, each system's start and stop is appended to it as a
 * JSON line (test file, phase, milliseconds): tools/test/suite-times.js sets them beside each
 * suite's time, to see what the harness costs a run.
 */
function recordTiming(phase: 'start' | 'stop', since: number): void {
  const file = process.env.TEAMCHAT_TEST_TIMINGS;
  if (!file) return;
  const testPath = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState().testPath;
  appendFileSync(file, `${JSON.stringify({ testPath, phase, ms: Date.now() - since })}\n`);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVICES, type ServiceName } from '@teamchat/contracts';
import { openPrisma, type PrismaService } from '@teamchat/db';
import { createTestDatabase, dropTestDatabase } from './databases';
import { ApiClient } from './api-client';
import { EventRecorder, deleteEventStream } from './event-recorder';
import { TEST_NATS_URL, TEST_REDIS_URL, TEST_ROOT_HOST, workspaceRoot } from './test-environment';

const root = workspaceRoot();

export interface SystemOptions {
  /** Extra environment for every process (e.g. RATE_LIMIT_ENABLED=true). */
  env?: Record<string, string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
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
  private readonly processes = new Map<ServiceName, ChildProcess>();
  private readonly logs = new Map<ServiceName, string[]>();
  private readonly recorders: EventRecorder[] = [];

  private constructor(
    private readonly database: { name: string; url: string },
    env: Record<string, string>,
    readonly ports: Record<ServiceName, number>,
  ) {
    this.env = env;
    this.api = new ApiClient(`http://127.0.0.1:${ports.gateway}`, TEST_ROOT_HOST);
    this.db = openPrisma(database.url);
  }

  static async start(options: SystemOptions = {}): Promise<TestSystem> {
    const database = await createTestDatabase();
    const namespace = randomBytes(4).toString('hex');
    const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()]))) as Record<
      ServiceName,
      number
    >;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      NATS_URL: TEST_NATS_URL,
      NATS_SUBJECT_PREFIX: `t${namespace}.`,
      REDIS_KEY_PREFIX: `test:${namespace}:`,
      EXTERNAL_URL: `http://${TEST_ROOT_HOST}`,
      RATE_LIMIT_ENABLED: 'false',
      AUTH_CACHE_TTL_SECONDS: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...options.env,
    };
    const system = new TestSystem(database, env, ports);
    await Promise.all(SERVICES.map((service) => system.startService(service, false)));
    await system.waitUntilReady();
    return system;
  }

  /** Starts one service (again), and by default waits until the gateway is ready. */
  async startService(service: ServiceName, waitForReady = true): Promise<void> {
    const portVariable = service === 'gateway' ? 'GATEWAY_PORT' : 'HEALTH_PORT';
    const child = spawn(process.execPath, [path.join(root, 'dist/apps', service, 'src/main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...this.env, [portVariable]: String(this.ports[service]) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    this.logs.set(service, log);
    const keep = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.length > 200) log.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.processes.set(service, child);
    if (waitForReady) await this.waitUntilReady();
  }

  /** Stops one service with SIGTERM and waits for it to exit. */
  async stopService(service: ServiceName, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.processes.get(service);
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    this.processes.delete(service);
    return code;
  }

  logOf(service: ServiceName): string {
    return (this.logs.get(service) ?? []).join('');
  }

  async waitUntilReady(timeoutMs = 30000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`http://127.0.0.1:${this.ports.gateway}/health/ready`, { signal: AbortSignal.timeout(3000) });
        last = await res.text();
        if (res.status === 200) return;
      } catch (error) {
        last = String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const logs = SERVICES.map((s) => `--- ${s}\n${this.logOf(s).slice(-2000)}`).join('\n');
    throw new Error(`System not ready after ${timeoutMs} ms: ${last}\n${logs}`);
  }

  /** Starts recording this system's domain events (stopped with the system). */
  async recordEvents(): Promise<EventRecorder> {
    const recorder = await EventRecorder.start(this.env.NATS_URL, this.env.NATS_SUBJECT_PREFIX);
    this.recorders.push(recorder);
    return recorder;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((service) => this.stopService(service)));
    await Promise.all(this.recorders.map((recorder) => recorder.stop()));
    await deleteEventStream(this.env.NATS_URL, this.env.NATS_SUBJECT_PREFIX);
    await this.db.$disconnect();
    await dropTestDatabase(this.database.name);
  }
}

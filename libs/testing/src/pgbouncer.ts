import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './system';
import { workspaceRoot } from './test-environment';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PgBouncerOptions {
  /** The Postgres it pools (host:port). Default 127.0.0.1:5432. */
  upstream?: { host: string; port: number };
  /** Server connections per database and user: the connection budget Postgres sees. */
  poolSize: number;
  /** session (the supported mode with Debian's PgBouncer 1.18: named prepared statements) or transaction. */
  poolMode?: 'session' | 'transaction';
}

/**
 * A real PgBouncer in front of Postgres (Debian's package, installed as root when missing), for
 * the tests and `npm run cluster`: every database passed through, trust authentication as the
 * machine's Postgres uses, at most `poolSize` server connections per database.
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(options: PgBouncerOptions): Promise<PgBouncer> {
    const { ensureProgram } = require(path.join(workspaceRoot(), 'tools/deps')) as { ensureProgram: (command: string, aptPackage: string) => Promise<string> };
    const binary = await ensureProgram('pgbouncer', 'pgbouncer');
    const upstream = options.upstream ?? { host: '127.0.0.1', port: 5432 };
    const port = await freePort();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-pgbouncer-'));
    chmodSync(dir, 0o777); // PgBouncer refuses to run as root: it runs as postgres
    writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
    writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${upstream.host} port=${upstream.port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        `pool_mode = ${options.poolMode ?? 'session'}`,
        `default_pool_size = ${options.poolSize}`,
        'max_client_conn = 2000',
        'admin_users = postgres',
        'ignore_startup_parameters = extra_float_digits,options',
        `logfile = ${path.join(dir, 'pgbouncer.log')}`,
        '',
      ].join('\n'),
    );
    const asRoot = process.getuid?.() === 0;
    const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    const bouncer = new PgBouncer(child, dir, port);
    const deadline = Date.now() + 15_000;
    while (!(await listening(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await bouncer.stop();
        throw new Error(`pgbouncer did not start (see ${path.join(dir, 'pgbouncer.log')})`);
      }
      await sleep(100);
    }
    return bouncer;
  }

  /** A Postgres URL rewritten to reach the same database through this PgBouncer. */
  via(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

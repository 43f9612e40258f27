#!/usr/bin/env node
// `npm start`: makes sure Postgres, Redis and NATS run (tools/deps starts private ones when
// they do not), builds, applies migrations, then runs every service as its own process with
// prefixed logs, restarting one that dies (tools/launcher/supervisor.js), until Ctrl-C or
// SIGTERM: then the services stop, and after them the dependencies it started.
const { spawn, execFileSync } = require('node:child_process');
const path = require('node:path');
const { ensureDependencies, defaultStateDir, DependencyError } = require('../deps');
const { createSupervisor } = require('./supervisor');

const root = path.resolve(__dirname, '../..');
const env = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/teamchat',
  REDIS_URL: 'redis://127.0.0.1:6379',
  NATS_URL: 'nats://127.0.0.1:4222',
  ...process.env,
};
const SERVICES = ['users-groups', 'messaging', 'scheduler', 'presence', 'uploads', 'push', 'gateway'];
const FIRST_HEALTH_PORT = Number(process.env.FIRST_HEALTH_PORT ?? 9101);
const COLORS = [36, 35, 33, 32, 34, 31, 37];

async function ensureDatabase() {
  const { Client } = require('pg');
  const url = new URL(env.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      console.log(`Created database ${name}.`);
    }
  } finally {
    await client.end();
  }
}

async function organizationCount() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) FROM realms')).rows[0].count);
  } finally {
    await client.end();
  }
}

/**
 * In a terminal (outside production) each service's JSON log line is shown readable, on one
 * line after the service's name; piped, the lines pass through as JSON.
 */
function lineFormatter() {
  const { PRETTY_LOG_OPTIONS } = require(path.join(root, 'dist/libs/platform/src/logger.js'));
  if (!process.stdout.isTTY || env.NODE_ENV === 'production') return (line) => line;
  const pretty = require('pino-pretty').prettyFactory({ ...PRETTY_LOG_OPTIONS, ignore: `${PRETTY_LOG_OPTIONS.ignore},service`, colorize: true });
  return (line) => (line.startsWith('{') ? pretty(line).replace(/\n$/, '') : line);
}
let formatLine = (line) => line;

function run(service, index) {
  const port = service === 'gateway' ? {} : { HEALTH_PORT: String(FIRST_HEALTH_PORT + index) };
  // In its own process group: a Ctrl-C at the terminal reaches the launcher only, which stops
  // the services itself (otherwise a service could die of the SIGINT first and be restarted).
  const { nodeOptionsOf } = require(path.join(root, 'dist/libs/platform/src/node-options.js'));
  const child = spawn(process.execPath, [...nodeOptionsOf(service), path.join(root, 'dist/apps', service, 'src/main.js')], {
    cwd: root,
    env: { ...env, ...port },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = process.stdout.isTTY ? `\x1b[${COLORS[index % COLORS.length]}m${service.padEnd(12)}\x1b[0m|` : `${service.padEnd(12)}|`;
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.on('data', (chunk) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop();
      for (const line of lines) process.stdout.write(`${prefix} ${formatLine(line)}\n`);
    });
  }
  return child;
}

/** Restarts are announced on stderr, in red in a terminal. */
function loud(line) {
  process.stderr.write(process.stderr.isTTY ? `\x1b[1;31m${line}\x1b[0m\n` : `${line}\n`);
}

async function waitForGateway(port) {
  const started = Date.now();
  let warned = false;
  while (!shutdownStarted) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    if (!warned && Date.now() - started > 60000) {
      warned = true;
      loud('Not every service is ready after 60 s (see the logs above); still waiting.');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

let depsReady = null;
let supervisor = null;
let shutdownStarted = false;

/** Stops the services, then the dependencies this launcher started, then exits. */
async function shutdown(reason, code) {
  if (shutdownStarted) {
    if (supervisor) {
      console.log(`${reason} again: killing the services.`);
      supervisor.kill();
    }
    return;
  }
  shutdownStarted = true;
  if (reason) console.log(`\n${reason}: stopping every service…`);
  try {
    if (supervisor) await supervisor.stop('SIGTERM');
    // Last, and after any start still under way has finished.
    const deps = await depsReady?.catch(() => null);
    if (deps) await deps.stop();
  } catch (error) {
    console.error(error);
    code = 1;
  }
  process.exit(code);
}

async function main() {
  const started = Date.now();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => shutdown(signal, 0));
  // A launcher that dies of an error leaves no service behind it.
  process.on('exit', () => supervisor?.kill());

  depsReady = ensureDependencies({ stateDir: defaultStateDir(root, env), env, log: (line) => console.log(line) });
  await depsReady;
  if (shutdownStarted) return;
  await ensureDatabase();
  require('../build').build({ quiet: true });
  formatLine = lineFormatter();
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: root, env, stdio: 'inherit' });
  if (shutdownStarted) return;

  supervisor = createSupervisor({ log: loud });
  SERVICES.forEach((service, index) => supervisor.add(service, () => run(service, index)));

  const gatewayPort = Number(env.GATEWAY_PORT ?? 9991);
  if (!(await waitForGateway(gatewayPort))) return;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nAll seven services are ready in ${seconds} s: http://localhost:${gatewayPort}/api/v1`);
  if ((await organizationCount()) === 0) {
    console.log(`
No organization yet. Create the first one (served at the root domain) with:
  npm run admin -- create-organization --name "My Org" --owner-email you@example.com --owner-name "Your Name" --owner-password 'a good password'
then fetch your API key:
  curl -sX POST http://localhost:${gatewayPort}/api/v1/fetch_api_key -d username=you@example.com -d 'password=a good password'
`);
  }
}

main().catch((error) => {
  console.error(error instanceof DependencyError ? error.message : error);
  return shutdown(null, 1);
});

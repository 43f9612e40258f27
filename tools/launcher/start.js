#!/usr/bin/env node
// `npm start`: checks Postgres, Redis and NATS, builds, applies migrations, then runs every
// service as its own process with prefixed logs until Ctrl-C (which stops them with SIGTERM).
const { spawn, execFileSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

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

const HOW_TO_START = {
  Postgres:
    'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (or: apt-get install -y postgresql)',
  Redis:
    'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no   (or: apt-get install -y redis-server)',
  NATS: 'nats-server -a 127.0.0.1 -p 4222 -js &   (or: apt-get install -y nats-server)',
};

function reachable(url, fallbackPort) {
  const { hostname, port } = new URL(url.replace(/^nats:/, 'http:'));
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || fallbackPort) });
    socket.setTimeout(1500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

async function checkDependencies() {
  const checks = [
    ['Postgres', env.DATABASE_URL, 5432],
    ['Redis', env.REDIS_URL, 6379],
    ['NATS', env.NATS_URL, 4222],
  ];
  const missing = [];
  for (const [name, url, port] of checks) if (!(await reachable(url, port))) missing.push([name, url]);
  if (missing.length === 0) return;
  for (const [name, url] of missing) {
    console.error(`${name} is not reachable at ${url.replace(/\/\/[^@]*@/, '//')}. Start it with:\n  ${HOW_TO_START[name]}`);
  }
  process.exit(1);
}

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
  const child = spawn(process.execPath, [path.join(root, 'dist/apps', service, 'src/main.js')], {
    cwd: root,
    env: { ...env, ...port },
    stdio: ['ignore', 'pipe', 'pipe'],
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

async function waitForGateway(port, children) {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (children.some((child) => child.exitCode !== null)) return false;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

async function main() {
  const started = Date.now();
  await checkDependencies();
  await ensureDatabase();
  require('../build').build({ quiet: true });
  formatLine = lineFormatter();
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: root, env, stdio: 'inherit' });

  const children = SERVICES.map(run);
  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping every service…`);
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  for (const child of children) {
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`A service exited (code ${code}); stopping the others.`);
        stop('exit');
      }
      if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(stopping && code === 0 ? 0 : 1);
    });
  }

  const gatewayPort = Number(env.GATEWAY_PORT ?? 9991);
  if (!(await waitForGateway(gatewayPort, children))) return stop('not ready');
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
  console.error(error);
  process.exit(1);
});

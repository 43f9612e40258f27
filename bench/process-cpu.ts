import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The servers the system runs on, summed over all their processes (Postgres has one per connection). */
const SERVERS: Record<string, string> = { postgres: 'postgres', 'redis-server': 'redis', 'nats-server': 'nats' };

/** A process's CPU seconds so far: in all (user + system), and the kernel's part (system). */
export interface CpuTimes {
  total: number;
  kernel: number;
}

/**
 * CPU times used so far, per process: `name` for a service, `server#pid` for each process of a
 * server (a Postgres backend may start or end between two snapshots).
 */
export type CpuSnapshot = Map<string, CpuTimes>;

function cpuTimesOf(pid: number): CpuTimes | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), numbered from 3: utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kernel = Number(fields[12]) / TICKS_PER_SECOND;
    return { total: Number(fields[11]) / TICKS_PER_SECOND + kernel, kernel };
  } catch {
    return undefined; // the process is gone
  }
}

/** CPU used between two snapshots, per process name (a server's processes summed), busiest first. */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): [string, CpuTimes][] {
  // A process that started meanwhile counts from zero; one that ended is not counted.
  const byName = new Map<string, CpuTimes>();
  for (const [key, now] of after) {
    const name = key.split('#')[0];
    const then = before.get(key) ?? { total: 0, kernel: 0 };
    const sum = byName.get(name) ?? { total: 0, kernel: 0 };
    byName.set(name, { total: sum.total + now.total - then.total, kernel: sum.kernel + now.kernel - then.kernel });
  }
  return [...byName].sort((a, b) => b[1].total - a[1].total);
}

/**
 * Reads every service process's CPU time and that of Postgres, Redis and NATS (all of their
 * processes on this machine). Two snapshots around a load phase say where its time went.
 */
export function cpuSnapshot(services: Map<string, number>, self = 'bench client'): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  for (const [name, pid] of services) {
    const times = cpuTimesOf(pid);
    if (times) snapshot.set(name, times);
  }
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const server = SERVERS[command];
    if (!server) continue;
    const times = cpuTimesOf(Number(entry));
    if (times) snapshot.set(`${server}#${entry}`, times);
  }
  const usage = process.cpuUsage();
  snapshot.set(self, { total: (usage.user + usage.system) / 1e6, kernel: usage.system / 1e6 });
  return snapshot;
}

/**
 * Prints the CPU seconds each process used between two snapshots, busiest first, its share of
 * `seconds`, and the kernel's part of it (system calls: on a long-poll server, mostly sockets).
 */
export function printCpu(before: CpuSnapshot, after: CpuSnapshot, seconds: number): void {
  const used = cpuUsed(before, after);
  const sum = used.reduce((total, [, cpu]) => total + cpu.total, 0);
  console.log(`  CPU seconds over ${seconds.toFixed(1)} s (2 cores = ${(2 * seconds).toFixed(1)} s available; all: ${sum.toFixed(2)} s):`);
  for (const [name, cpu] of used) {
    if (cpu.total < 0.005) continue;
    const kernel = `kernel ${cpu.kernel.toFixed(2)} s`;
    console.log(`    ${name.padEnd(16)} ${cpu.total.toFixed(2).padStart(7)} s  (${((100 * cpu.total) / seconds).toFixed(0).padStart(3)}% of a core; ${kernel})`);
  }
}

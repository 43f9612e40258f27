import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The servers the system runs on, summed over all their processes (Postgres has one per connection). */
const SERVERS: Record<string, string> = { postgres: 'postgres', 'redis-server': 'redis', 'nats-server': 'nats' };

/**
 * CPU seconds (user + system) used so far, per process: `name` for a service, `server#pid` for
 * each process of a server (a Postgres backend may start or end between two snapshots).
 */
export type CpuSnapshot = Map<string, number>;

function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), numbered from 3: utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined; // the process is gone
  }
}

/**
 * Reads every service process's CPU time and that of Postgres, Redis and NATS (all of their
 * processes on this machine). Two snapshots around a load phase say where its time went.
 */
export function cpuSnapshot(services: Map<string, number>, self = 'bench client'): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  for (const [name, pid] of services) {
    const seconds = cpuSecondsOf(pid);
    if (seconds !== undefined) snapshot.set(name, seconds);
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
    const seconds = cpuSecondsOf(Number(entry));
    if (seconds !== undefined) snapshot.set(`${server}#${entry}`, seconds);
  }
  const usage = process.cpuUsage();
  snapshot.set(self, (usage.user + usage.system) / 1e6);
  return snapshot;
}

/** Prints the CPU seconds each process used between two snapshots, busiest first, and its share of `seconds`. */
export function printCpu(before: CpuSnapshot, after: CpuSnapshot, seconds: number): void {
  // A process that started meanwhile counts from zero; one that ended is not counted.
  const byName = new Map<string, number>();
  for (const [key, total] of after) {
    const name = key.split('#')[0];
    byName.set(name, (byName.get(name) ?? 0) + total - (before.get(key) ?? 0));
  }
  const used = [...byName].sort((a, b) => b[1] - a[1]);
  const sum = used.reduce((total, [, cpu]) => total + cpu, 0);
  console.log(`  CPU seconds over ${seconds.toFixed(1)} s (2 cores = ${(2 * seconds).toFixed(1)} s available; all: ${sum.toFixed(2)} s):`);
  for (const [name, cpu] of used) {
    if (cpu < 0.005) continue;
    console.log(`    ${name.padEnd(16)} ${cpu.toFixed(2).padStart(7)} s  (${((100 * cpu) / seconds).toFixed(0).padStart(3)}% of a core)`);
  }
}

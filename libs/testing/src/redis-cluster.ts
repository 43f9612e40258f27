import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/**
 * A real Redis Cluster on this machine, for the specs of the cluster client paths: three masters
 * with a replica each (`redis-server` processes, `cluster-enabled yes`, data under a temporary
 * folder), made into a cluster by `redis-cli --cluster create`. Start it, give its `nodes` to the
 * system as REDIS_CLUSTER_NODES, and stop it afterwards (the processes end, the folder goes).
 */
export class RedisCluster {
  private constructor(
    readonly ports: number[],
    private readonly processes: ChildProcess[],
    private readonly dir: string,
  ) {}

  /** `host:port,…` of every node, as REDIS_CLUSTER_NODES takes them. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  static async start(masters = 3, replicasEach = 1): Promise<RedisCluster> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'teamchat-redis-cluster-'));
    const count = masters * (1 + replicasEach);
    const ports = await clusterPorts(count);
    const processes: ChildProcess[] = [];
    const cluster = new RedisCluster(ports, processes, dir);
    try {
      for (const port of ports) {
        await mkdir(path.join(dir, String(port)));
        processes.push(cluster.spawnNode(port));
      }
      await Promise.all(ports.map((port) => waitFor(() => ping(port), `redis-server on ${port}`)));
      await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', String(replicasEach), '--cluster-yes']);
      await Promise.all(ports.map((port) => waitFor(() => clusterOk(port, count, masters * replicasEach), `cluster state ok on ${port}`)));
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** The master node that serves `key`'s slot, as `host:port`. */
  async masterOf(key: string): Promise<string> {
    const redis = new Redis(this.runningPorts()[0], '127.0.0.1');
    redis.on('error', () => undefined);
    try {
      const slot = (await redis.call('CLUSTER', 'KEYSLOT', key)) as number;
      const ranges = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      if (!range) throw new Error(`no node serves slot ${slot}`);
      return `${range[2][0]}:${range[2][1]}`;
    } finally {
      redis.disconnect();
    }
  }

  /** Kills the node at `host:port` at once (SIGKILL), as a lost machine. */
  async killNode(node: string): Promise<void> {
    const index = this.ports.indexOf(Number(node.split(':').pop()));
    const child = this.processes[index];
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts a killed node again with its cluster configuration: it rejoins (as a replica, its master having failed over). */
  async startNode(node: string): Promise<void> {
    const port = Number(node.split(':').pop());
    this.processes[this.ports.indexOf(port)] = this.spawnNode(port);
    await waitFor(() => ping(port), `redis-server on ${port}`);
    await this.waitUntilServed();
  }

  /** Waits until every running node says the cluster is ok: every slot served (after a failover, by the promoted replica). */
  async waitUntilServed(timeoutMs = 30_000): Promise<void> {
    await Promise.all(this.runningPorts().map((port) => waitFor(() => clusterStateOk(port), `cluster state ok on ${port}`, timeoutMs)));
  }

  /** Waits until `key`'s slot is served by a node other than `former` (its replica promoted), and the cluster is ok. */
  async waitForFailover(former: string, key: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => (await this.masterOf(key).catch(() => former)) !== former, `a new master for ${key}`, timeoutMs);
    await this.waitUntilServed(timeoutMs);
  }

  private runningPorts(): number[] {
    return this.ports.filter((_, i) => this.processes[i]?.exitCode === null && this.processes[i]?.signalCode === null);
  }

  private spawnNode(port: number): ChildProcess {
    return spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000', '--dir', path.join(this.dir, String(port)), '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Ports for the nodes, each with its cluster bus port (port + 10000) free too. */
async function clusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < count && attempt < 1000; attempt++) {
    const port = 12000 + Math.floor(Math.random() * 8000);
    if (ports.includes(port) || !(await canListen(port)) || !(await canListen(port + 10000))) continue;
    ports.push(port);
  }
  if (ports.length < count) throw new Error('no free ports for a Redis Cluster');
  return ports;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function ping(port: number): Promise<boolean> {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // a node not up yet: the check answers false
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Whether the node says the cluster is ok, knows every node, and sees every replica attached to its master. */
async function clusterOk(port: number, nodes: number, replicas: number): Promise<boolean> {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // a node not up yet: the check answers false
  try {
    await redis.connect();
    const info = (await redis.call('CLUSTER', 'INFO')) as string;
    if (!/cluster_state:ok/.test(info) || !new RegExp(`cluster_known_nodes:${nodes}\\b`).test(info)) return false;
    const table = (await redis.call('CLUSTER', 'NODES')) as string;
    return table.split('\n').filter((line) => /\bslave\b/.test(line)).length === replicas;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function clusterStateOk(port: number): Promise<boolean> {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // a node not up yet: the check answers false
  try {
    await redis.connect();
    return /cluster_state:ok/.test((await redis.call('CLUSTER', 'INFO')) as string);
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

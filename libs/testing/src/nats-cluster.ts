import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'nats';
import { freePort } from './system';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A real three-node NATS cluster with JetStream on this machine (Debian's nats-server), for
 * tests and `npm run cluster`: each node its own client port, route port and store directory.
 * A node can be killed and started again (same ports, same store), as a pod is.
 */
export class NatsCluster {
  private readonly processes: (ChildProcess | undefined)[] = [];

  private constructor(
    private readonly dir: string,
    private readonly clientPorts: number[],
    private readonly routePorts: number[],
  ) {}

  /** Starts `size` nodes and waits until JetStream has a leader. */
  static async start(size = 3): Promise<NatsCluster> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-nats-cluster-'));
    const clientPorts: number[] = [];
    const routePorts: number[] = [];
    for (let i = 0; i < size; i++) {
      clientPorts.push(await freePort());
      routePorts.push(await freePort());
    }
    const cluster = new NatsCluster(dir, clientPorts, routePorts);
    for (let i = 0; i < size; i++) cluster.startNode(i);
    try {
      await cluster.waitForJetStream();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** The client URLs, as NATS_URL takes them (comma-separated). */
  get url(): string {
    return this.clientPorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  }

  urlOf(node: number): string {
    return `nats://127.0.0.1:${this.clientPorts[node]}`;
  }

  /** The node (index) whose server name is `name` (as JetStream names a stream's leader). */
  nodeNamed(name: string): number {
    return Number(name.replace(/^n/, ''));
  }

  startNode(node: number): void {
    const routes = this.routePorts.filter((_, i) => i !== node).map((port) => `nats://127.0.0.1:${port}`).join(',');
    const child = spawn(
      'nats-server',
      [
        '-a', '127.0.0.1', '-p', String(this.clientPorts[node]),
        '-n', `n${node}`, '-js', '-sd', path.join(this.dir, `n${node}`),
        '--cluster_name', 'teamchat', '--cluster', `nats://127.0.0.1:${this.routePorts[node]}`, '--routes', routes,
      ],
      { stdio: 'ignore' },
    );
    this.processes[node] = child;
  }

  /** Kills one node at once (SIGKILL), as a lost machine. */
  async killNode(node: number): Promise<void> {
    const child = this.processes[node];
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.processes[node] = undefined;
  }

  /** Waits until JetStream answers through every running node (a meta leader is elected). */
  async waitForJetStream(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const running = this.clientPorts.filter((_, i) => this.processes[i]);
    for (const port of running) {
      for (;;) {
        const ready = await connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false, timeout: 1000 })
          .then(async (connection) => {
            try {
              await (await connection.jetstreamManager({ timeout: 1000 })).getAccountInfo();
              return true;
            } finally {
              await connection.close();
            }
          })
          .catch(() => false);
        if (ready) break;
        if (Date.now() > deadline) throw new Error(`NATS cluster: JetStream not ready on port ${port} after ${timeoutMs} ms`);
        await sleep(250);
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((_, node) => this.killNode(node)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * `npm run chaos`: the whole system with two replicas of every service under a steady load (see
 * chaos-run.ts for the load and the promises checked) while, one step at a time: (1) every
 * service is rolled (SIGTERM one replica, start it again, then the other); (2) one replica of each
 * service is SIGKILLed and started again; (3) NATS, then Redis, then Postgres are restarted;
 * (4) `outbox`: a messaging replica is SIGKILLed at a random moment, 30 times
 * (CHAOS_MESSAGING_KILLS), while the senders go on. Rolling must fail no request; kills only with
 * 503 or a connection cut by the killed process; dependencies: readiness is false while one is
 * down and true again after, with no restart.
 *
 * Tunable: CHAOS_STEPS (roll,kill,deps,outbox), and chaos-run.ts's.
 * Step 3 restarts this machine's Postgres, Redis and NATS: nothing else should be using them.
 */
import { execFileSync, execSync } from 'node:child_process';
import { SERVICES, readiness, runChaos, sleep } from './chaos-run';
import { runBenchmark } from './support';

const messagingKills = Number(process.env.CHAOS_MESSAGING_KILLS ?? 30);

runBenchmark(() =>
  runChaos({
    name: 'chaos',
    env: {},
    steps: (process.env.CHAOS_STEPS ?? 'roll,kill,deps,outbox').split(','),
    documentedFailure: (step, failure) =>
      (failure.status === 0 && (step === 'kill' || step === 'outbox') && failure.error !== 'timeout') || (step === 'deps' && failure.status === 0),
  stepRuns: ({ system, gatewayUrls, restart, waitReady, keepLog, markBroken }) => ({
    roll: async () => {
      const started = Date.now();
      for (const service of ['gateway', ...SERVICES]) {
        const names = service === 'gateway' ? system.gatewayNames : [service, `${service}#1`];
        for (const name of names) await restart(name, 'SIGTERM');
      }
      return `rolled 14 processes in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    },
    kill: async () => {
      const recoveries: string[] = [];
      for (const service of ['gateway', ...SERVICES]) {
        const name = service === 'gateway' ? system.gatewayNames[1] : `${service}#1`;
        const started = Date.now();
        await restart(name, 'SIGKILL');
        recoveries.push(`${service} ${((Date.now() - started) / 1000).toFixed(1)} s`);
        await sleep(2000);
      }
      return `killed and restarted: ${recoveries.join(', ')}`;
    },
    outbox: async () => {
      // A replica of messaging SIGKILLed at a random moment of the sending, again and again:
      // some kills land between a send's commit and its publish, which the outbox covers.
      const started = Date.now();
      const replicas = ['messaging', 'messaging#1'];
      for (let kill = 0; kill < messagingKills; kill++) {
        await sleep(Math.random() * 1500);
        const name = replicas[kill % 2];
        await system.stopService(name as never, 'SIGKILL');
        keepLog(name);
        await system.startService(name as never, false);
        await waitReady(name);
      }
      return `SIGKILLed messaging ${messagingKills} times in ${((Date.now() - started) / 1000).toFixed(0)} s`;
    },
    deps: async () => {
      const recoveries: string[] = [];
      const gateway = gatewayUrls[0];
      for (const dependency of ['nats', 'redis', 'postgres'] as const) {
        const started = Date.now();
        stopDependency(dependency);
        let sawNotReady = false;
        for (let i = 0; i < 30 && !sawNotReady; i++) {
          sawNotReady = !(await readiness(gateway));
          await sleep(100);
        }
        await sleep(2000);
        startDependency(dependency);
        for (const name of system.gatewayNames) await waitReady(name, 90_000);
        recoveries.push(`${dependency} ${((Date.now() - started) / 1000).toFixed(1)} s (not ready while down: ${sawNotReady ? 'yes' : 'NO'})`);
        if (!sawNotReady) markBroken();
        await sleep(3000);
      }
      return `restarted: ${recoveries.join(', ')}`;
    },
  }),
  }),
);

/** The same commands that start this machine's services (../shared/ENVIRONMENT.md). */
function stopDependency(dependency: 'nats' | 'redis' | 'postgres'): void {
  if (dependency === 'nats') execSync('pkill -TERM -x nats-server || true');
  if (dependency === 'redis') execSync('redis-cli -h 127.0.0.1 shutdown nosave || true');
  if (dependency === 'postgres') execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main stop -m fast');
}

function startDependency(dependency: 'nats' | 'redis' | 'postgres'): void {
  if (dependency === 'nats') {
    execFileSync('start-stop-daemon', [
      '--start', '--oknodo', '--background', '--exec', '/usr/sbin/nats-server', '--',
      '-a', '127.0.0.1', '-p', '4222', '-js', '-sd', '/var/lib/nats-server', '-l', '/var/log/nats-server.log',
    ]);
  }
  if (dependency === 'redis') {
    execSync('redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log');
  }
  if (dependency === 'postgres') execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start');
}

/**
 * `npm run cluster`: the system as a deployment beyond one machine runs it, on this machine: a
 * Redis Cluster (three masters with a replica each), three NATS nodes as one JetStream cluster
 * (the event stream and every durable consumer on all three), Postgres behind PgBouncer (session
 * pooling: the connection budget), and two replicas of every service. Under chaos-run's load
 * (senders, 200 long-polled queues, scheduled messages, a topic deletion) it kills, one step at a
 * time: a Redis master (its replica takes over, the killed node comes back as a replica), the NATS
 * node leading the event stream (the other two go on, the node comes back and catches up), and a
 * gateway replica; after each it checks the same promises as `npm run chaos` and exits non-zero
 * when one breaks.
 *
 * Tunable: CLUSTER_STEPS (redis-master,nats-node,gateway), and chaos-run.ts's.
 */
import { NatsCluster, PgBouncer, RedisCluster } from '@teamchat/testing';
import { eventStreamName } from '@teamchat/contracts';
import { connect } from 'nats';
import { runChaos, sleep } from './chaos-run';
import { runBenchmark } from './support';

/** How long each fault lasts before the node is started again: the load goes on meanwhile. */
const OUTAGE_MS = 10_000;

async function main(): Promise<void> {
  console.log('cluster: starting a Redis Cluster (3 masters, 3 replicas), 3 NATS nodes, PgBouncer…');
  const [redis, nats, bouncer] = await Promise.all([RedisCluster.start(3, 1), NatsCluster.start(3), PgBouncer.start({ poolSize: 70 })]);
  try {
    await runChaos({
      name: 'cluster',
      // Two replicas of six services that own tables, each with 3 + 1 pooled connections and one
      // LISTEN: 60 PgBouncer clients, each holding a server connection (session pooling), within
      // the bouncer's 70 and Postgres's 100.
      env: {
        REDIS_CLUSTER_NODES: redis.nodes,
        NATS_URL: nats.url,
        NATS_STREAM_REPLICAS: '3',
        DATABASE_POOL_SIZE: '3',
        DATABASE_COLD_POOL_SIZE: '1',
      },
      databaseVia: (url) => bouncer.via(url),
      steps: (process.env.CLUSTER_STEPS ?? 'redis-master,nats-node,gateway').split(','),
      documentedFailure: (step, failure) => step === 'gateway' && failure.status === 0 && failure.error !== 'timeout',
      stepRuns: ({ system, realmId, restart }) => ({
        'redis-master': async () => {
          // The master holding the fan-out partition of the load's organization (its queues, its lease).
          const partitionKey = `{p${realmId % Number(system.env.EVENT_FANOUT_PARTITIONS ?? 8)}}`;
          const victim = await redis.masterOf(partitionKey);
          const started = Date.now();
          await redis.killNode(victim);
          await redis.waitForFailover(victim, partitionKey);
          const failover = Date.now() - started;
          await sleep(OUTAGE_MS);
          await redis.startNode(victim);
          return `killed Redis master ${victim}: its replica served its slots after ${(failover / 1000).toFixed(1)} s; it came back as a replica`;
        },
        'nats-node': async () => {
          const leader = await streamLeader(nats, system.env.NATS_SUBJECT_PREFIX);
          await nats.killNode(leader);
          await sleep(OUTAGE_MS);
          const next = await streamLeader(nats, system.env.NATS_SUBJECT_PREFIX);
          nats.startNode(leader);
          await nats.waitForJetStream(60_000);
          return `killed NATS node n${leader} (the event stream's leader); n${next} led it meanwhile; n${leader} came back`;
        },
        gateway: async () => {
          const started = Date.now();
          await restart(system.gatewayNames[1], 'SIGKILL');
          return `SIGKILLed a gateway; ready again after ${((Date.now() - started) / 1000).toFixed(1)} s`;
        },
      }),
    });
  } finally {
    await Promise.all([redis.stop(), nats.stop(), bouncer.stop()]);
  }
}

/** The node (index) leading the event stream, asked through any node that answers. */
async function streamLeader(nats: NatsCluster, subjectPrefix: string): Promise<number> {
  const connection = await connect({ servers: nats.url.split(',') });
  try {
    const info = await (await connection.jetstreamManager()).streams.info(eventStreamName(subjectPrefix));
    return nats.nodeNamed(info.cluster?.leader ?? 'n0');
  } finally {
    await connection.close();
  }
}

runBenchmark(main);

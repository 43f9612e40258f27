/**
 * The deployment files, tested as data: there is no Docker engine or cluster here, so
 * docker-compose.yml, k8s/ and the Dockerfile are parsed and checked against the code
 * (services, entry files, configuration names, ports, probe paths) and against the Kubernetes
 * schemas. The last block breaks copies of the files in memory and expects the checks to say so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import {
  CONFIG_KEYS,
  ROOT,
  SERVICES,
  composeProblems,
  dockerfileProblems,
  effectiveUser,
  FINAL_STAGE,
  imageConsistencyProblems,
  infraProblems,
  k8sProblems,
  parseCompose,
  parseDockerfile,
  parseK8s,
  readInfra,
  readK8s,
  readText,
  schemaProblems,
  stageByName,
  type Data,
  type Dockerfile,
  type K8sObject,
} from './deploy-checks';
import { BULLMQ_WORKERS, kedaSchemaProblems, longestHeartbeatSeconds, scalingProblems, workerSourceProblems } from './scaling-checks';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const packageJson = JSON.parse(readText('package.json'));
const dockerignore = readText('.dockerignore');
const dockerfileText = readText('Dockerfile');
const composeText = readText('docker-compose.yml');
const k8sFiles = readK8s();

let dockerfile: Dockerfile;
let compose: Data;
let objects: K8sObject[];
let kustomization: Data;
const k8sFileNames = Object.keys(k8sFiles.manifests);

beforeAll(() => {
  dockerfile = parseDockerfile(dockerfileText);
  compose = parseCompose(composeText);
  objects = parseK8s(k8sFiles).objects;
  kustomization = parse(k8sFiles.kustomization);
});

const allK8sProblems = (objs: K8sObject[], kust: Data = kustomization, names: string[] = k8sFileNames) => [
  ...schemaProblems(objs),
  ...k8sProblems(objs, kust, names),
];

describe('the configuration schema these checks rely on', () => {
  it('has the variables the deployment files set', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'NATS_URL', 'EXTERNAL_URL', 'GATEWAY_PORT', 'HEALTH_PORT', 'LOG_LEVEL']) {
      expect(CONFIG_KEYS.has(name)).toBe(true);
    }
  });

  it('has an entry file for every service', () => {
    for (const service of SERVICES) {
      expect(fs.existsSync(path.join(ROOT, 'apps', service, 'src', 'main.ts'))).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  it('has no problems', () => {
    expect(dockerfileProblems(dockerfile, { packageJson, dockerignore })).toEqual([]);
  });

  it('builds in a stage named build, with npm ci then tools/build.js', () => {
    const build = stageByName(dockerfile, 'build');
    expect(build).toBeDefined();
    const runs = build!.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => /\bnpm ci\b/.test(run))).toBe(true);
    expect(runs.some((run) => /\bnode tools\/build\.js\b/.test(run))).toBe(true);
  });

  it('runs the final (runtime) stage as a non-root user', () => {
    const runtime = FINAL_STAGE(dockerfile)!;
    expect(runtime.name).toBe('runtime');
    expect(['root', '0', '']).not.toContain(effectiveUser(dockerfile, runtime));
  });

  it('copies in only files that exist in the repository', () => {
    for (const file of ['package.json', 'package-lock.json', 'prisma.config.ts', 'prisma/schema.prisma', 'tools/build.js']) {
      expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
    }
  });
});

describe('docker-compose.yml', () => {
  it('parses', () => {
    expect(compose).toBeDefined();
    expect(typeof compose.services).toBe('object');
  });

  it('has exactly the seven services plus postgres, redis, nats and migrate (besides the optional profiles)', () => {
    expect(Object.keys(compose.services).filter((name) => !compose.services[name].profiles).sort()).toEqual(
      [...SERVICES, 'postgres', 'redis', 'nats', 'migrate'].sort(),
    );
  });

  it('has no problems (entry files, env names, ports, health checks, dependencies)', () => {
    expect(composeProblems(compose, dockerfile, packageJson)).toEqual([]);
  });
});

describe('k8s/infra/ (the engines underneath)', () => {
  const infra = readInfra();

  it('parses, and every object is valid for its kind', () => {
    expect(infra.problems).toEqual([]);
    expect(infra.objects.map((o) => `${o.obj.kind} ${o.obj.metadata.name}`).sort()).toEqual([
      'ConfigMap nats-config',
      'ConfigMap pgbouncer-config',
      'ConfigMap redis-cluster-config',
      'Deployment pgbouncer',
      'Job redis-cluster-create',
      'PodDisruptionBudget redis',
      'Service nats-cluster',
      'Service pgbouncer',
      'Service redis-cluster',
      'StatefulSet nats',
      'StatefulSet redis',
    ]);
    expect(schemaProblems(infra.objects)).toEqual([]);
  });

  it('is the NATS cluster, the PgBouncer and the Redis Cluster the services are configured for', () => {
    expect(infraProblems(infra, objects)).toEqual([]);
  });

  it('catches a two-node NATS, a NATS_URL missing a node, transaction pooling and a budget overrun', () => {
    const broken = structuredClone(infra);
    const nats = broken.objects.find((o) => o.obj.kind === 'StatefulSet' && o.obj.metadata.name === 'nats')!.obj;
    nats.spec.replicas = 2;
    const bouncer = broken.objects.find((o) => o.obj.metadata.name === 'pgbouncer-config')!.obj;
    bouncer.data['pgbouncer.ini'] = String(bouncer.data['pgbouncer.ini']).replace('pool_mode = session', 'pool_mode = transaction').replace('default_pool_size = 40', 'default_pool_size = 90');
    const problems = infraProblems(broken, objects).join('\n');
    expect(problems).toMatch(/NATS runs 2 nodes, not 3/);
    expect(problems).toMatch(/NATS_STREAM_REPLICAS is 3, not the cluster's 2/);
    expect(problems).toMatch(/pool_mode is transaction, not session/);
    expect(problems).toMatch(/past the budget/);
  });

  it('names the six Redis pods alike in the StatefulSet, the create Job, REDIS_CLUSTER_NODES and KEDA', () => {
    const nodes = Array.from({ length: 6 }, (_, i) => `redis-${i}.redis-cluster:6379`);
    const config = objects.find((o) => o.obj.kind === 'ConfigMap')!.obj.data;
    expect(config.REDIS_CLUSTER_NODES.split(',')).toEqual(nodes);
    const job = infra.objects.find((o) => o.obj.kind === 'Job' && o.obj.metadata.name === 'redis-cluster-create')!.obj;
    expect(job.spec.template.spec.containers[0].env.find((e: Data) => e.name === 'REDIS_NODES').value.split(' ')).toEqual(nodes);
    const listTriggers = objects.filter((o) => o.obj.kind === 'ScaledObject').flatMap((o) => o.obj.spec.triggers.filter((t: Data) => t.type !== 'cpu'));
    expect(listTriggers.length).toBeGreaterThan(0);
    for (const trigger of listTriggers) expect([trigger.type, trigger.metadata.addresses]).toEqual(['redis-cluster', nodes.join(',')]);
  });

  it('catches a five-node Redis Cluster, cluster mode off, no disruption budget, and node lists that disagree', () => {
    const broken = structuredClone(infra);
    const redis = broken.objects.find((o) => o.obj.kind === 'StatefulSet' && o.obj.metadata.name === 'redis')!.obj;
    redis.spec.replicas = 5;
    const conf = broken.objects.find((o) => o.obj.metadata.name === 'redis-cluster-config')!.obj;
    conf.data['redis.conf'] = String(conf.data['redis.conf']).replace('cluster-enabled yes', 'cluster-enabled no').replace('cluster-config-file /data/nodes.conf', 'cluster-config-file /tmp/nodes.conf');
    broken.objects = broken.objects.filter((o) => o.obj.kind !== 'PodDisruptionBudget');
    const problems = infraProblems(broken, objects).join('\n');
    expect(problems).toMatch(/the Redis Cluster runs 5 nodes, not 6/);
    expect(problems).toMatch(/redis\.conf does not set cluster-enabled yes/);
    expect(problems).toMatch(/cluster-config-file \/tmp\/nodes\.conf is not on the pod's volume/);
    expect(problems).toMatch(/want one PodDisruptionBudget with maxUnavailable 1 selecting the Redis pods, found 0/);
    // Five pods: the Job's, the pods' and the services' six-node lists now name one too many.
    expect(problems).toMatch(/the create Job's nodes \[.*redis-5\.redis-cluster:6379\] are not the StatefulSet's \[redis-0/);
    expect(problems).toMatch(/REDIS_CLUSTER_NODES \[.*redis-5.*\] does not name exactly the Redis pods/);
  });

  it('catches a create Job on other names, a Service that is not the StatefulSet\'s, and a seed list missing a pod', () => {
    const broken = structuredClone(infra);
    const job = broken.objects.find((o) => o.obj.kind === 'Job')!.obj;
    const env = job.spec.template.spec.containers[0].env.find((e: Data) => e.name === 'REDIS_NODES');
    env.value = env.value.replace(/redis-cluster:/g, 'redis:');
    const service = broken.objects.find((o) => o.obj.kind === 'Service' && o.obj.metadata.name === 'redis-cluster')!.obj;
    service.metadata.name = 'redis';
    const apps = clone(objects);
    const config = apps.find((o) => o.obj.kind === 'ConfigMap')!.obj.data;
    config.REDIS_CLUSTER_NODES = config.REDIS_CLUSTER_NODES.split(',').slice(0, 5).join(',');
    const problems = infraProblems(broken, apps).join('\n');
    expect(problems).toMatch(/the create Job's nodes \[redis-0\.redis:6379.*\] are not the StatefulSet's/);
    expect(problems).toMatch(/serviceName redis-cluster is no headless Service selecting its pods/);
    expect(problems).toMatch(/REDIS_CLUSTER_NODES \[redis-0\.redis-cluster:6379, .*redis-4\.redis-cluster:6379\] does not name exactly/);
    // KEDA's triggers still list the six: they must follow REDIS_CLUSTER_NODES.
    expect(allK8sProblems(apps).join('\n')).toMatch(/redis-cluster trigger addresses .*, but REDIS_CLUSTER_NODES is/);
  });

  it('catches a create Job that would run redis-cli --cluster create again on an existing cluster', () => {
    const broken = structuredClone(infra);
    const conf = broken.objects.find((o) => o.obj.metadata.name === 'redis-cluster-config')!.obj;
    conf.data['create-cluster.sh'] = 'redis-cli --cluster create $REDIS_NODES --cluster-replicas 1 --cluster-yes';
    expect(infraProblems(broken, objects).join('\n')).toMatch(/does not first look for an existing cluster/);
  });
});

describe('k8s/', () => {
  it('parses every file', () => {
    expect(parseK8s(k8sFiles).problems).toEqual([]);
    expect(objects.length).toBeGreaterThan(0);
  });

  it('validates every object against its Kubernetes schema', () => {
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('has a Deployment and a Service for every service', () => {
    for (const service of SERVICES) {
      const kinds = objects.filter((o) => o.file === `${service}.yaml`).map((o) => o.obj.kind);
      expect(kinds.sort()).toEqual(['Deployment', 'Service']);
    }
  });

  it('has no problems (probes, ports, env, resources, HPA targets, kustomization)', () => {
    expect(k8sProblems(objects, kustomization, k8sFileNames)).toEqual([]);
  });

  it('uses the same images as docker-compose.yml', () => {
    expect(imageConsistencyProblems(compose, objects)).toEqual([]);
  });
});

describe('k8s/ scaling and disruption', () => {
  const configData = () => objects.find((o) => o.obj.kind === 'ConfigMap')!.obj.data;
  const scalers = (name: string) =>
    objects.filter((o) => ['HorizontalPodAutoscaler', 'ScaledObject'].includes(o.obj.kind) && o.obj.spec.scaleTargetRef.name === name).map((o) => o.obj.kind);

  it('has no problems (one autoscaler each, worker queues, PDBs, topology spread, gateway drain)', () => {
    expect(scalingProblems(objects, configData())).toEqual([]);
  });

  it('lists every BullMQ worker of the code, with the constants it runs with', () => {
    expect(workerSourceProblems()).toEqual([]);
    expect(BULLMQ_WORKERS.map((w) => [w.deployment, w.queue])).toEqual([
      ['scheduler', 'scheduled-delivery'],
      ['messaging', 'topic-deletion'],
      ['push', 'message-notifications'],
      ['push', 'mobile-push'],
      ['push', 'missed-message-emails'],
      ['messaging', 'outgoing-webhooks'],
      ['uploads', 'realm-export'],
    ]);
  });

  it('validates the ScaledObjects with @kubernetes-models/keda', () => {
    const scaled = objects.filter((o) => o.obj.kind === 'ScaledObject');
    expect(scaled.map((o) => o.obj.metadata.name).sort()).toEqual(['messaging', 'push', 'scheduler', 'uploads']);
    expect(kedaSchemaProblems(scaled)).toEqual([]);
  });

  it('scales the workers on their queues and every other service on CPU', () => {
    for (const service of SERVICES) {
      expect(scalers(service)).toEqual([BULLMQ_WORKERS.some((w) => w.deployment === service) ? 'ScaledObject' : 'HorizontalPodAutoscaler']);
    }
    const scheduler = objects.find((o) => o.obj.kind === 'ScaledObject' && o.obj.metadata.name === 'scheduler')!.obj;
    expect(scheduler.spec.triggers.map((t: Data) => [t.type, t.metadata.listName ?? '', t.metadata.listLength ?? ''])).toEqual([
      ['cpu', '', ''],
      ['redis-cluster', 'teamchat:{bull}:scheduled-delivery:wait', '64'],
      ['redis-cluster', 'teamchat:{bull}:scheduled-delivery:active', '64'],
    ]);
  });

  it('gives the gateway a grace period longer than preStop plus the longest heartbeat wait', () => {
    const pod = objects.find((o) => o.obj.kind === 'Deployment' && o.obj.metadata.name === 'gateway')!.obj.spec.template.spec;
    const sleep = Number(pod.containers[0].lifecycle.preStop.exec.command[1]);
    expect(sleep).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(sleep + longestHeartbeatSeconds(45));
  });
});

/** The checks must be able to fail: each broken copy (in memory only) must be reported. */
describe('the checks catch broken files', () => {
  const expectProblem = (problems: string[], pattern: RegExp) => {
    expect(problems.some((problem) => pattern.test(problem))).toBe(true);
  };

  const mutateObject = (kind: string, name: string, change: (obj: Data) => void): K8sObject[] =>
    clone(objects).map((o) => {
      if (o.obj.kind === kind && o.obj.metadata?.name === name) change(o.obj);
      return o;
    });

  it('compose: a health check on the wrong port', () => {
    const broken = clone(compose);
    broken.services.messaging.healthcheck.test = broken.services.messaging.healthcheck.test.map((w: string) => w.replace(':9100/', ':9101/'));
    expectProblem(composeProblems(broken, dockerfile, packageJson), /messaging: the healthcheck asks port 9101, but HEALTH_PORT is 9100/);
  });

  it('compose: a health check on an unknown path', () => {
    const broken = clone(compose);
    broken.services.gateway.healthcheck.test = broken.services.gateway.healthcheck.test.map((w: string) => w.replace('/health/ready', '/healthz'));
    expectProblem(composeProblems(broken, dockerfile, packageJson), /gateway: the healthcheck asks \/healthz/);
  });

  it('compose: a misspelt variable', () => {
    const broken = clone(compose);
    broken.services.presence.environment.DATABSE_URL = 'postgresql://x@postgres:5432/teamchat';
    expectProblem(composeProblems(broken, dockerfile, packageJson), /presence: DATABSE_URL is not a setting/);
  });

  it('compose: a value the config validation rejects', () => {
    const broken = clone(compose);
    broken.services.push.environment.LOG_LEVEL = 'verbose';
    expectProblem(composeProblems(broken, dockerfile, packageJson), /push: LOG_LEVEL is invalid/);
  });

  it('compose: a missing service and a command pointing at no entry file', () => {
    const broken = clone(compose);
    delete broken.services.uploads;
    broken.services.scheduler.command = ['node', 'dist/apps/schedule/src/main.js'];
    const problems = composeProblems(broken, dockerfile, packageJson);
    expectProblem(problems, /compose: services are/);
    expectProblem(problems, /scheduler: entry dist\/apps\/schedule\/src\/main\.js has no source file/);
  });

  it('compose: a service that does not wait for the migration', () => {
    const broken = clone(compose);
    broken.services['users-groups'].depends_on.migrate.condition = 'service_started';
    expectProblem(composeProblems(broken, dockerfile, packageJson), /users-groups must depend on migrate with condition service_completed_successfully/);
  });

  it('compose: merge keys are resolved (without them the env would be missing)', () => {
    const unmerged = parse(composeText);
    expectProblem(composeProblems(unmerged, dockerfile, packageJson), /is not a setting|does not set/);
  });

  it('k8s: a readiness probe on the wrong port', () => {
    const broken = mutateObject('Deployment', 'messaging', (d) => (d.spec.template.spec.containers[0].readinessProbe.httpGet.port = 9101));
    expectProblem(allK8sProblems(broken), /Deployment messaging: readinessProbe asks port 9101, but HEALTH_PORT is 9100/);
  });

  it('k8s: a liveness probe on the ready path', () => {
    const broken = mutateObject('Deployment', 'push', (d) => (d.spec.template.spec.containers[0].livenessProbe.httpGet.path = '/health/ready'));
    expectProblem(allK8sProblems(broken), /Deployment push: livenessProbe asks \/health\/ready, want \/health\/live/);
  });

  it('k8s: an object that breaks its schema', () => {
    const broken = mutateObject('Deployment', 'presence', (d) => (d.spec.template.spec.containers[0].ports[0].containerPort = '9100'));
    expectProblem(allK8sProblems(broken), /Deployment presence: .*containerPort must be integer/);
  });

  it('k8s: an unknown variable in the ConfigMap and a missing port variable', () => {
    const broken = mutateObject('ConfigMap', 'teamchat-config', (c) => (c.data.NATS_SERVER = 'nats://nats:4222'));
    const broken2 = mutateObject('Deployment', 'gateway', (d) => (d.spec.template.spec.containers[0].env = []));
    expectProblem(allK8sProblems(broken), /ConfigMap teamchat-config: NATS_SERVER is not a setting/);
    expectProblem(allK8sProblems(broken2), /Deployment gateway: does not set GATEWAY_PORT/);
  });

  it('k8s: an HPA whose target is not a Deployment, and a kustomization that misses a file', () => {
    const broken = mutateObject('HorizontalPodAutoscaler', 'presence', (h) => (h.spec.scaleTargetRef.name = 'presense'));
    expectProblem(allK8sProblems(broken), /scaleTargetRef apps\/v1\/Deployment\/presense is not a Deployment/);
    const kust = clone(kustomization);
    kust.resources = kust.resources.filter((r: string) => r !== 'hpa.yaml');
    expectProblem(allK8sProblems(objects, kust), /kustomization\.yaml: resources .* differ/);
  });

  it('k8s: a Service that does not reach the gateway port, and service links left on', () => {
    const broken = mutateObject('Service', 'gateway', (s) => (s.spec.ports[0].targetPort = 8080));
    expectProblem(allK8sProblems(broken), /Service gateway: targetPort 8080 is not GATEWAY_PORT 9991/);
    const linked = mutateObject('Deployment', 'scheduler', (d) => delete d.spec.template.spec.enableServiceLinks);
    expectProblem(allK8sProblems(linked), /Deployment scheduler: enableServiceLinks must be false/);
  });

  it('k8s: a ScaledObject target that is not the worker\'s concurrency, or a queue name the code does not use', () => {
    const broken = mutateObject('ScaledObject', 'scheduler', (o) => (o.spec.triggers[1].metadata.listLength = '10'));
    expectProblem(allK8sProblems(broken), /scheduled-delivery:wait listLength 10, but the worker's concurrency is 64/);
    const misnamed = mutateObject('ScaledObject', 'messaging', (o) => (o.spec.triggers[2].metadata.listName = 'teamchat:{bull}:topic-deletions:active'));
    const problems = allK8sProblems(misnamed);
    expectProblem(problems, /redis trigger on teamchat:{bull}:topic-deletions:active, which is no list of a queue/);
    expectProblem(problems, /no redis-cluster trigger on teamchat:{bull}:topic-deletion:active/);
  });

  it('k8s: queue keys under another REDIS_KEY_PREFIX, or another Redis', () => {
    const prefixed = mutateObject('ConfigMap', 'teamchat-config', (c) => (c.data.REDIS_KEY_PREFIX = 'chat:'));
    expectProblem(allK8sProblems(prefixed), /no redis-cluster trigger on chat:{bull}:scheduled-delivery:wait/);
    const oneNode = (objs: K8sObject[]) =>
      objs.map((o) => {
        if (o.obj.kind !== 'ConfigMap') return o;
        delete o.obj.data.REDIS_CLUSTER_NODES;
        o.obj.data.REDIS_URL = 'redis://redis-0:6380/2';
        return o;
      });
    // The services on one node while KEDA still watches the cluster.
    expectProblem(allK8sProblems(oneNode(clone(objects))), /a redis-cluster trigger on teamchat:{bull}:scheduled-delivery:wait, but the services use one Redis node \(REDIS_URL\): want redis/);
    // KEDA on one node too, but not the services' node.
    const singleTriggers = oneNode(
      mutateObject('ScaledObject', 'scheduler', (o) =>
        o.spec.triggers.filter((t: Data) => t.type === 'redis-cluster').forEach((t: Data) => {
          t.type = 'redis';
          t.metadata = { address: 'redis:6379', databaseIndex: '0', listName: t.metadata.listName, listLength: t.metadata.listLength };
        }),
      ),
    );
    const problems = allK8sProblems(singleTriggers);
    expectProblem(problems, /redis trigger address redis:6379, but REDIS_URL is redis-0:6380/);
    expectProblem(problems, /databaseIndex 0, but REDIS_URL's database is 2/);
    expect(problems.some((p) => /ScaledObject scheduler: a redis trigger/.test(p))).toBe(false);
  });

  it('k8s: two autoscalers on one Deployment, and a ScaledObject KEDA rejects', () => {
    const doubled = mutateObject('HorizontalPodAutoscaler', 'presence', (h) => (h.spec.scaleTargetRef.name = 'messaging'));
    expectProblem(allK8sProblems(doubled), /Deployment messaging has 2 autoscalers/);
    expectProblem(allK8sProblems(doubled), /Deployment presence has 0 autoscalers/);
    const invalid = mutateObject('ScaledObject', 'scheduler', (o) => (o.spec.minReplicaCount = '2'));
    expectProblem(allK8sProblems(invalid), /ScaledObject scheduler: .*minReplicaCount must be integer/);
  });

  it('k8s: a Deployment without its disruption budget or zone spread', () => {
    const noBudget = clone(objects).filter((o) => !(o.obj.kind === 'PodDisruptionBudget' && o.obj.metadata.name === 'uploads'));
    expectProblem(allK8sProblems(noBudget), /Deployment uploads has 0 PodDisruptionBudgets/);
    const unspread = mutateObject('Deployment', 'push', (d) => (d.spec.template.spec.topologySpreadConstraints = d.spec.template.spec.topologySpreadConstraints.slice(1)));
    expectProblem(allK8sProblems(unspread), /Deployment push: no topologySpreadConstraint on topology.kubernetes.io\/zone/);
  });

  it('k8s: a gateway killed before its long-polls can end', () => {
    const broken = mutateObject('Deployment', 'gateway', (d) => (d.spec.template.spec.terminationGracePeriodSeconds = 60));
    expectProblem(allK8sProblems(broken), /gateway: terminationGracePeriodSeconds 60 is not longer than preStop \(10 s\) plus the longest heartbeat wait \(55 s\)/);
  });

  it('k8s: a BullMQ worker in the code that nothing scales', () => {
    expectProblem(workerSourceProblems(BULLMQ_WORKERS.slice(1)), /apps\/scheduler\/src\/delivery\/delivery\.worker\.ts: a BullMQ worker that BULLMQ_WORKERS/);
  });

  it('Dockerfile: running as root, and a build stage without tools/build.js', () => {
    const asRoot = parseDockerfile(dockerfileText.replace(/^USER .*$/gm, ''));
    expectProblem(dockerfileProblems(asRoot, { packageJson, dockerignore }), /runtime stage \(runtime\) runs as root/);
    const noBuild = parseDockerfile(dockerfileText.replace(/node tools\/build\.js/g, 'true'));
    expectProblem(dockerfileProblems(noBuild, { packageJson, dockerignore }), /does not run node tools\/build\.js/);
  });

  it('Dockerfile: a runtime image that keeps the devDependencies, or a migrate image without them', () => {
    const unpruned = parseDockerfile(dockerfileText.replace(/--from=prod-deps \/app\/node_modules/, '--from=build /app/node_modules'));
    expectProblem(dockerfileProblems(unpruned, { packageJson, dockerignore }), /copies node_modules from build, which keeps the devDependencies/);
    const pruned = parseDockerfile(dockerfileText.replace(/COPY --from=build \/app\/node_modules/, 'COPY --from=prod-deps /app/node_modules'));
    expectProblem(composeProblems(compose, pruned, packageJson), /migration stage \(migrate\) has node_modules without devDependencies/);
  });
});

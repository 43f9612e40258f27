/**
 * Checks of how k8s/ scales and disrupts the services, against the code: every Deployment has
 * one autoscaler (an HPA on CPU, or a KEDA ScaledObject where the Deployment runs BullMQ
 * workers), the ScaledObjects watch the queues the workers take jobs from (names and key prefix
 * as the code builds them, per-replica target = the worker's concurrency), every Deployment has
 * a PodDisruptionBudget and topology spread, and the gateway drains its long-polls before it goes.
 *
 * The queue names and concurrencies come from the same constants the workers use (BULLMQ_WORKERS
 * below imports them), and `workerSourceProblems` fails when a `new Worker(` appears in the code
 * that BULLMQ_WORKERS does not list, so a new worker cannot be left without a scaling signal.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QueueKeys } from 'bullmq';
import { DELIVERY_QUEUE } from '../libs/contracts/src/scheduler/scheduled-messages';
import { TOPIC_DELETION_QUEUE } from '../libs/contracts/src/messaging/topics';
import { OUTGOING_WEBHOOKS_QUEUE } from '../libs/contracts/src/messaging/outgoing-webhooks';
import { REALM_EXPORT_QUEUE } from '../libs/contracts/src/uploads/realm-export';
import { MESSAGE_NOTIFICATIONS_QUEUE, MISSED_MESSAGE_EMAIL_QUEUE, MOBILE_PUSH_QUEUE } from '../libs/contracts/src/push/notifications';
import { bullmqPrefix } from '../libs/platform/src/bullmq';
import { configSchema } from '../libs/platform/src/config';
import { DELIVERY } from '../apps/scheduler/src/delivery/delivery.settings';
import { TOPIC_DELETION } from '../apps/messaging/src/topics/topic-deletion.settings';
import { NOTIFICATION_WORKERS } from '../apps/push/src/notifications/notification.settings';
import { OUTGOING_WEBHOOKS } from '../apps/messaging/src/outgoing-webhooks/outgoing-webhooks.settings';
import { REALM_EXPORT } from '../apps/uploads/src/realm-export/realm-export.settings';
import type { Data, K8sObject } from './deploy-checks';

const ROOT = path.resolve(__dirname, '..');

export interface BullmqWorker {
  /** The Deployment whose pods run the worker. */
  deployment: string;
  queue: string;
  /** Jobs one replica runs at once: the ScaledObject's per-replica target. */
  concurrency: number;
  /** The file with the `new Worker(`. */
  source: string;
}

/** Every BullMQ worker in the code, from the constants the workers themselves use. */
export const BULLMQ_WORKERS: readonly BullmqWorker[] = [
  { deployment: 'scheduler', queue: DELIVERY_QUEUE, concurrency: DELIVERY.concurrency, source: 'apps/scheduler/src/delivery/delivery.worker.ts' },
  { deployment: 'messaging', queue: TOPIC_DELETION_QUEUE, concurrency: TOPIC_DELETION.concurrency, source: 'apps/messaging/src/topics/topic-deletion.worker.ts' },
  { deployment: 'push', queue: MESSAGE_NOTIFICATIONS_QUEUE, concurrency: NOTIFICATION_WORKERS.decisionConcurrency, source: 'apps/push/src/notifications/decisions.worker.ts' },
  { deployment: 'push', queue: MOBILE_PUSH_QUEUE, concurrency: NOTIFICATION_WORKERS.pushConcurrency, source: 'apps/push/src/notifications/mobile-push.worker.ts' },
  { deployment: 'push', queue: MISSED_MESSAGE_EMAIL_QUEUE, concurrency: NOTIFICATION_WORKERS.emailConcurrency, source: 'apps/push/src/missed-emails/missed-message-email.worker.ts' },
  { deployment: 'messaging', queue: OUTGOING_WEBHOOKS_QUEUE, concurrency: OUTGOING_WEBHOOKS.concurrency, source: 'apps/messaging/src/outgoing-webhooks/outgoing-webhooks.worker.ts' },
  { deployment: 'uploads', queue: REALM_EXPORT_QUEUE, concurrency: REALM_EXPORT.concurrency, source: 'apps/uploads/src/realm-export/realm-export.worker.ts' },
];

/** The BullMQ lists a worker's ScaledObject watches: jobs ready to take, and jobs being run. */
export const SCALING_LISTS = ['wait', 'active'] as const;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) out.push(full);
  }
  return out;
}

/** Every `new Worker(` under apps/<service>/src is a listed worker, of that service, naming its queue constant. */
export function workerSourceProblems(workers: readonly BullmqWorker[] = BULLMQ_WORKERS): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const service of fs.readdirSync(path.join(ROOT, 'apps'))) {
    const src = path.join(ROOT, 'apps', service, 'src');
    if (!fs.existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      const text = fs.readFileSync(file, 'utf8');
      if (!/\bnew Worker\s*[(<]/.test(text)) continue;
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      seen.add(relative);
      const listed = workers.find((w) => w.source === relative);
      if (!listed) {
        problems.push(`${relative}: a BullMQ worker that BULLMQ_WORKERS (deploy/scaling-checks.ts) does not list, so nothing scales on its queue`);
        continue;
      }
      if (listed.deployment !== service) problems.push(`${relative}: runs in ${service}, but BULLMQ_WORKERS says ${listed.deployment}`);
    }
  }
  for (const worker of workers) {
    if (!seen.has(worker.source)) problems.push(`BULLMQ_WORKERS: ${worker.source} has no \`new Worker(\``);
  }
  return problems;
}

/** KEDA's models are ES modules only: they validate in a child process. */
export function kedaSchemaProblems(objects: K8sObject[]): string[] {
  if (objects.length === 0) return [];
  const script = `
    import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const problems = [];
    for (const { file, obj } of JSON.parse(input)) {
      try { new ScaledObject(obj).validate(); } catch (error) { problems.push('k8s/' + file + ': ScaledObject ' + (obj?.metadata?.name) + ': ' + error.message); }
    }
    process.stdout.write(JSON.stringify(problems));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, input: JSON.stringify(objects), encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

const selects = (selector: Data, podLabels: Record<string, string>) =>
  selector && typeof selector === 'object' && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => podLabels[k] === v);

function cpuRequested(deployment: Data): boolean {
  const text = String(deployment?.spec?.template?.spec?.containers?.[0]?.resources?.requests?.cpu ?? '');
  return text !== '' && (text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text)) > 0;
}

/** The longest a long-poll waits before its heartbeat: EVENT_HEARTBEAT_SECONDS plus Zulip's 10/45 jitter (see LongPoll). */
export const longestHeartbeatSeconds = (heartbeatSeconds: number): number => heartbeatSeconds + (heartbeatSeconds * 10) / 45;

export function scalingProblems(objects: K8sObject[], configData: Record<string, unknown>, workers: readonly BullmqWorker[] = BULLMQ_WORKERS): string[] {
  const problems: string[] = [];
  const ofKind = (kind: string) => objects.filter(({ obj }) => obj?.kind === kind);
  const deployments = ofKind('Deployment');
  const config = configSchema.parse(Object.fromEntries(Object.entries(configData).map(([k, v]) => [k, String(v)])));
  const redis = new URL(config.REDIS_URL);
  const redisAddress = `${redis.hostname}:${redis.port || 6379}`;
  const redisDb = String(Number(redis.pathname.replace(/^\//, '') || 0));
  // KEDA's list scaler for the Redis the services use: the cluster's (same nodes) or the one node's.
  const clusterNodes = config.REDIS_CLUSTER_NODES.split(',').filter(Boolean).sort().join(',');
  const listTrigger = clusterNodes ? 'redis-cluster' : 'redis';
  const keys = new QueueKeys(bullmqPrefix(config));

  // Exactly one autoscaler per Deployment.
  const scalers = new Map<string, string[]>();
  const target = (name: string, what: string) => scalers.set(name, [...(scalers.get(name) ?? []), what]);
  for (const { obj } of ofKind('HorizontalPodAutoscaler')) target(obj.spec?.scaleTargetRef?.name, `HorizontalPodAutoscaler/${obj.metadata?.name}`);
  for (const { file, obj } of ofKind('ScaledObject')) {
    const where = `k8s/${file} ScaledObject ${obj.metadata?.name}`;
    const ref = obj.spec?.scaleTargetRef ?? {};
    const deployment = deployments.find((d) => d.obj.metadata?.name === ref.name)?.obj;
    if (!deployment || (ref.kind ?? 'Deployment') !== 'Deployment' || (ref.apiVersion ?? 'apps/v1') !== 'apps/v1') {
      problems.push(`${where}: scaleTargetRef ${ref.apiVersion}/${ref.kind}/${ref.name} is not a Deployment in k8s/`);
      continue;
    }
    target(ref.name, `ScaledObject/${obj.metadata?.name}`);
    if (deployment.spec?.replicas !== undefined) problems.push(`${where}: Deployment ${ref.name} sets spec.replicas, which fights the autoscaler on every apply`);
    if (!(obj.spec?.minReplicaCount >= 2)) problems.push(`${where}: minReplicaCount ${obj.spec?.minReplicaCount} (want at least 2: the service answers commands)`);
    if (!(obj.spec?.maxReplicaCount >= obj.spec?.minReplicaCount)) problems.push(`${where}: maxReplicaCount below minReplicaCount`);
    const triggers: Data[] = obj.spec?.triggers ?? [];
    if (!triggers.some((t) => t.type === 'cpu')) problems.push(`${where}: no cpu trigger (the Deployment also answers commands)`);
    if (triggers.some((t) => t.type === 'cpu') && !cpuRequested(deployment)) problems.push(`${where}: scales on CPU, but Deployment ${ref.name} requests no CPU`);
    for (const trigger of triggers.filter((t) => t.type === 'redis' || t.type === 'redis-cluster')) {
      const m = trigger.metadata ?? {};
      const listed = workers.some((w) => w.deployment === ref.name && SCALING_LISTS.some((list) => keys.getKeys(w.queue)[list] === m.listName));
      if (!listed) problems.push(`${where}: redis trigger on ${m.listName}, which is no list of a queue ${ref.name}'s workers take jobs from`);
      if (trigger.type !== listTrigger) {
        problems.push(`${where}: a ${trigger.type} trigger on ${m.listName}, but the services use ${clusterNodes ? `a Redis Cluster (REDIS_CLUSTER_NODES): want redis-cluster` : 'one Redis node (REDIS_URL): want redis'}`);
      } else if (clusterNodes) {
        const addresses = String(m.addresses ?? '').split(',').map((a) => a.trim()).filter(Boolean).sort().join(',');
        if (addresses !== clusterNodes) problems.push(`${where}: redis-cluster trigger addresses ${addresses}, but REDIS_CLUSTER_NODES is ${clusterNodes}`);
      } else {
        if (m.address !== redisAddress) problems.push(`${where}: redis trigger address ${m.address}, but REDIS_URL is ${redisAddress}`);
        if (String(m.databaseIndex ?? '0') !== redisDb) problems.push(`${where}: redis trigger databaseIndex ${m.databaseIndex}, but REDIS_URL's database is ${redisDb}`);
      }
    }
  }
  for (const { obj } of deployments) {
    const name = obj.metadata?.name;
    const own = scalers.get(name) ?? [];
    if (own.length !== 1) problems.push(`k8s: Deployment ${name} has ${own.length} autoscalers [${own.join(', ')}], want exactly one`);
  }

  // Each worker's queue scales its Deployment: its wait and active lists, one replica per `concurrency` jobs.
  for (const worker of workers) {
    const scaled = ofKind('ScaledObject').find((o) => o.obj.spec?.scaleTargetRef?.name === worker.deployment)?.obj;
    if (!scaled) {
      problems.push(`k8s: Deployment ${worker.deployment} runs the ${worker.queue} worker but has no ScaledObject`);
      continue;
    }
    for (const list of SCALING_LISTS) {
      const listName = keys.getKeys(worker.queue)[list];
      const trigger = (scaled.spec?.triggers ?? []).find((t: Data) => t.type === listTrigger && t.metadata?.listName === listName);
      if (!trigger) {
        problems.push(`k8s: ScaledObject ${scaled.metadata?.name} has no ${listTrigger} trigger on ${listName} (queue ${worker.queue}, ${list})`);
        continue;
      }
      if (Number(trigger.metadata?.listLength) !== worker.concurrency) {
        problems.push(`k8s: ScaledObject ${scaled.metadata?.name}: ${listName} listLength ${trigger.metadata?.listLength}, but the worker's concurrency is ${worker.concurrency}`);
      }
    }
  }

  // A PodDisruptionBudget and topology spread for every Deployment.
  const budgets = ofKind('PodDisruptionBudget');
  for (const { file, obj } of deployments) {
    const name = obj.metadata?.name;
    const podLabels: Record<string, string> = obj.spec?.template?.metadata?.labels ?? {};
    const own = budgets.filter((b) => selects(b.obj.spec?.selector?.matchLabels, podLabels));
    if (own.length !== 1) problems.push(`k8s: Deployment ${name} has ${own.length} PodDisruptionBudgets, want one`);
    for (const { obj: budget } of own) {
      const maxUnavailable = budget.spec?.maxUnavailable;
      if (budget.spec?.minAvailable !== undefined || !(Number(maxUnavailable) >= 1)) {
        problems.push(`k8s: PodDisruptionBudget ${budget.metadata?.name}: want maxUnavailable ≥ 1 (minAvailable can block every drain of a scaled-in service)`);
      }
    }
    const spread: Data[] = obj.spec?.template?.spec?.topologySpreadConstraints ?? [];
    for (const key of ['topology.kubernetes.io/zone', 'kubernetes.io/hostname']) {
      const constraint = spread.find((c) => c.topologyKey === key);
      if (!constraint) problems.push(`k8s/${file} Deployment ${name}: no topologySpreadConstraint on ${key}`);
      else if (!selects(constraint.labelSelector?.matchLabels, podLabels)) problems.push(`k8s/${file} Deployment ${name}: the ${key} spread does not select its own pods`);
    }
  }

  // The gateway drains: preStop, then SIGTERM answers the waiting polls, all inside the grace period.
  const gateway = deployments.find((d) => d.obj.metadata?.name === 'gateway')?.obj;
  if (gateway) {
    const pod = gateway.spec?.template?.spec ?? {};
    const preStop = pod.containers?.[0]?.lifecycle?.preStop;
    const sleep = preStop?.sleep?.seconds ?? (preStop?.exec?.command?.[0] === 'sleep' ? Number(preStop.exec.command[1]) : undefined);
    if (!(Number(sleep) > 0)) problems.push('k8s: Deployment gateway: no preStop sleep (the pod must leave the Service before SIGTERM)');
    const needed = Number(sleep ?? 0) + longestHeartbeatSeconds(config.EVENT_HEARTBEAT_SECONDS);
    if (!(pod.terminationGracePeriodSeconds > needed)) {
      problems.push(`k8s: Deployment gateway: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} is not longer than preStop (${sleep ?? 0} s) plus the longest heartbeat wait (${longestHeartbeatSeconds(config.EVENT_HEARTBEAT_SECONDS)} s)`);
    }
  }
  return problems;
}

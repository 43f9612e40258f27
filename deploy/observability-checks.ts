/**
 * Checks of the observability files as data: docker-compose.yml's `tracing` profile (an
 * OpenTelemetry collector in front of Jaeger, reachable at the endpoint the services are told)
 * and the Grafana dashboard (every query names series the processes really expose, and every
 * operations series has a panel).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { MetricsService } from '../libs/platform/src/metrics';
import { configSchema } from '../libs/platform/src/config';
import type { Data } from './deploy-checks';

const ROOT = path.resolve(__dirname, '..');

export const TRACING_PROFILE = 'tracing';
export const TRACING_SERVICES = ['jaeger', 'otel-collector'] as const;
/** What a developer sets to turn tracing on under compose (see docker-compose.yml's header). */
export const COMPOSE_OTLP_ENDPOINT = 'http://otel-collector:4318';

/** The series the operations work added: each must be on the dashboard. */
export const OPERATIONS_SERIES = [
  'command_duration_seconds',
  'command_errors_total',
  'command_call_duration_seconds',
  'event_fanout_duration_seconds',
  'event_fanout_lag_seconds',
  'event_queues_registered_total',
  'event_queues_deleted_total',
  'event_long_polls_in_progress',
  'events_delivered_total',
  'bullmq_queue_jobs',
  'bullmq_job_duration_seconds',
  'bullmq_job_wait_seconds',
] as const;

/** Every series name a process exposes on /metrics (its registry, default metrics included). */
export async function exposedSeries(): Promise<Set<string>> {
  const metrics = new MetricsService();
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

const PROMQL_WORDS = new Set(['sum', 'max', 'min', 'avg', 'count', 'by', 'without', 'rate', 'irate', 'increase', 'histogram_quantile', 'le', 'on', 'ignoring', 'and', 'or', 'unless', 'offset', 'bool', 'topk', 'bottomk']);

/** The metric names a PromQL expression reads (identifiers outside label matchers and groupings). */
export function seriesIn(expr: string): string[] {
  const withoutLabels = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/"[^"]*"/g, ' ');
  const names = withoutLabels.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name)))];
}

export function dashboardProblems(dashboard: Data, exposed: Set<string>): string[] {
  const problems: string[] = [];
  const panels: Data[] = dashboard?.panels ?? [];
  if (!dashboard?.title || !dashboard?.uid) problems.push('dashboard: no title or uid');
  const ids = panels.map((p) => p.id);
  if (new Set(ids).size !== ids.length) problems.push('dashboard: panel ids repeat');
  const used = new Set<string>();
  for (const panel of panels) {
    if (!panel.gridPos) problems.push(`dashboard: panel ${panel.id} has no gridPos`);
    if (panel.type === 'row') continue;
    if (panel.datasource?.uid !== '${datasource}') problems.push(`dashboard: panel "${panel.title}" does not use the datasource variable`);
    const targets: Data[] = panel.targets ?? [];
    if (targets.length === 0) problems.push(`dashboard: panel "${panel.title}" has no query`);
    for (const target of targets) {
      for (const name of seriesIn(String(target.expr ?? ''))) {
        if (!exposed.has(name)) problems.push(`dashboard: panel "${panel.title}" reads ${name}, which no process exposes`);
        used.add(name.replace(/_(bucket|count|sum)$/, ''));
      }
    }
  }
  for (const series of OPERATIONS_SERIES) if (!used.has(series)) problems.push(`dashboard: no panel shows ${series}`);
  const variables: Data[] = dashboard?.templating?.list ?? [];
  if (!variables.some((v) => v.name === 'datasource' && v.type === 'datasource' && v.query === 'prometheus')) problems.push('dashboard: no Prometheus datasource variable');
  return problems;
}

/**
 * The `tracing` profile: the collector and Jaeger exist only in it, no service of the system
 * depends on them, the collector's config (mounted from the repository) takes OTLP/HTTP on the
 * port the services are told and exports to Jaeger's OTLP port, and the services' endpoint is
 * empty (off) unless the developer sets it. `compose` is parsed with no variables set,
 * `composeTraced` with OTEL_EXPORTER_OTLP_ENDPOINT set as the header says.
 */
export function tracingProfileProblems(compose: Data, composeTraced: Data): string[] {
  const problems: string[] = [];
  const services: Record<string, Data> = compose?.services ?? {};
  const profiled = Object.entries(services).filter(([, s]) => s?.profiles).map(([name]) => name).sort();
  if (JSON.stringify(profiled) !== JSON.stringify([...TRACING_SERVICES])) problems.push(`compose: services with profiles are [${profiled.join(', ')}], expected [${TRACING_SERVICES.join(', ')}]`);
  for (const name of TRACING_SERVICES) {
    const profiles = services[name]?.profiles ?? [];
    if (JSON.stringify(profiles) !== JSON.stringify([TRACING_PROFILE])) problems.push(`compose: ${name} profiles ${JSON.stringify(profiles)}, want ["${TRACING_PROFILE}"]`);
  }
  for (const [name, service] of Object.entries(services)) {
    if (service?.profiles) continue;
    const dependencies = Array.isArray(service?.depends_on) ? service.depends_on : Object.keys(service?.depends_on ?? {});
    for (const dependency of dependencies) if ((TRACING_SERVICES as readonly string[]).includes(dependency)) problems.push(`compose: ${name} depends on ${dependency}, which only the ${TRACING_PROFILE} profile starts`);
  }

  const collector = services['otel-collector'] ?? {};
  if (!/^otel\/opentelemetry-collector(-contrib)?:\d/.test(String(collector.image))) problems.push(`compose: otel-collector image ${collector.image} is not a pinned otel/opentelemetry-collector`);
  if (!/^jaegertracing\/(all-in-one|jaeger):\d/.test(String(services.jaeger?.image))) problems.push(`compose: jaeger image ${services.jaeger?.image} is not a pinned jaegertracing image`);
  const configArg = String((collector.command ?? []).find((a: string) => String(a).startsWith('--config=')) ?? '').slice('--config='.length);
  const mount = (collector.volumes ?? []).map(String).find((v: string) => v.split(':')[1] === configArg);
  if (!mount) {
    problems.push(`compose: otel-collector's --config ${configArg || '(none)'} is not a mounted file`);
    return problems;
  }
  const source = path.join(ROOT, mount.split(':')[0]);
  if (!fs.existsSync(source)) {
    problems.push(`compose: otel-collector mounts ${mount.split(':')[0]}, which does not exist`);
    return problems;
  }
  problems.push(...collectorConfigProblems(parse(fs.readFileSync(source, 'utf8'))));

  // The services: off by default, and on, pointed at the collector's OTLP/HTTP receiver.
  for (const [label, file, want] of [
    ['by default', compose, ''],
    [`with OTEL_EXPORTER_OTLP_ENDPOINT=${COMPOSE_OTLP_ENDPOINT}`, composeTraced, COMPOSE_OTLP_ENDPOINT],
  ] as const) {
    for (const [name, service] of Object.entries<Data>(file?.services ?? {})) {
      if (!String(service?.command ?? '').includes('dist/apps/')) continue;
      const value = service.environment?.OTEL_EXPORTER_OTLP_ENDPOINT;
      if (value !== want) problems.push(`compose: ${name} OTEL_EXPORTER_OTLP_ENDPOINT is ${JSON.stringify(value)} ${label}, want ${JSON.stringify(want)}`);
      if (!configSchema.shape.OTEL_EXPORTER_OTLP_ENDPOINT.safeParse(value).success) problems.push(`compose: ${name} OTEL_EXPORTER_OTLP_ENDPOINT ${JSON.stringify(value)} is invalid`);
    }
  }
  return problems;
}

export function collectorConfigProblems(config: Data): string[] {
  const problems: string[] = [];
  const endpoint = new URL(COMPOSE_OTLP_ENDPOINT);
  const http = String(config?.receivers?.otlp?.protocols?.http?.endpoint ?? '');
  if (!http.endsWith(`:${endpoint.port}`) || !http.startsWith('0.0.0.0')) problems.push(`collector: the OTLP/HTTP receiver listens on ${http || '(nothing)'}, want 0.0.0.0:${endpoint.port}`);
  const pipeline = config?.service?.pipelines?.traces ?? {};
  if (!(pipeline.receivers ?? []).includes('otlp')) problems.push('collector: the traces pipeline does not take the otlp receiver');
  const exporters: string[] = pipeline.exporters ?? [];
  const toJaeger = exporters.filter((name) => /^otlp(\/|$)/.test(name) && /^jaeger:4317$/.test(String(config?.exporters?.[name]?.endpoint)));
  if (toJaeger.length === 0) problems.push('collector: no traces exporter sends OTLP to jaeger:4317');
  for (const name of [...exporters, ...(pipeline.processors ?? [])]) {
    if (!(name in (config?.exporters ?? {})) && !(name in (config?.processors ?? {}))) problems.push(`collector: the traces pipeline names ${name}, which is not defined`);
  }
  return problems;
}

/**
 * The observability files, tested as data: docker-compose.yml's `tracing` profile and its
 * collector configuration, and the Grafana dashboard against the series the processes expose.
 * The last block breaks copies in memory and expects the checks to say so.
 */
import { parse } from 'yaml';
import { parseCompose, readText, type Data } from './deploy-checks';
import {
  COMPOSE_OTLP_ENDPOINT,
  OPERATIONS_SERIES,
  collectorConfigProblems,
  dashboardProblems,
  exposedSeries,
  seriesIn,
  tracingProfileProblems,
} from './observability-checks';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const composeText = readText('docker-compose.yml');
const compose = parseCompose(composeText);
const composeTraced = parseCompose(composeText, { OTEL_EXPORTER_OTLP_ENDPOINT: COMPOSE_OTLP_ENDPOINT });
const dashboard = JSON.parse(readText('deploy/observability/grafana-dashboard.json'));
const collectorConfig = parse(readText('deploy/observability/otel-collector.yaml'));
let exposed: Set<string>;

beforeAll(async () => {
  exposed = await exposedSeries();
});

const expectProblem = (problems: string[], pattern: RegExp) => expect(problems.some((problem) => pattern.test(problem))).toBe(true);

describe('docker-compose.yml tracing profile', () => {
  it('has no problems (collector and Jaeger only in the profile, wired to each other and to the services)', () => {
    expect(tracingProfileProblems(compose, composeTraced)).toEqual([]);
  });

  it('leaves tracing off unless the endpoint is set, and points it at the collector when it is', () => {
    expect(compose.services.messaging.environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('');
    expect(composeTraced.services.gateway.environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
    expect(compose.services.jaeger.profiles).toEqual(['tracing']);
  });

  it('has a collector configuration that receives OTLP/HTTP and exports to Jaeger', () => {
    expect(collectorConfigProblems(collectorConfig)).toEqual([]);
  });
});

describe('Grafana dashboard', () => {
  it('reads only series the processes expose, and shows every operations series', () => {
    expect(dashboardProblems(dashboard, exposed)).toEqual([]);
  });

  it('finds the series of a PromQL expression', () => {
    expect(seriesIn('histogram_quantile(0.95, sum by (le, subject) (rate(command_duration_seconds_bucket{subject!="x"}[5m])))')).toEqual(['command_duration_seconds_bucket']);
    expect(seriesIn('max by (queue, state) (bullmq_queue_jobs)')).toEqual(['bullmq_queue_jobs']);
  });

  it('exposes every operations series from the metrics registry', () => {
    for (const series of OPERATIONS_SERIES) expect(exposed.has(series)).toBe(true);
  });
});

describe('the observability checks catch broken files', () => {
  it('compose: a collector outside the profile, or a service that needs it', () => {
    const broken = clone(compose);
    delete broken.services['otel-collector'].profiles;
    broken.services.messaging.depends_on = { ...broken.services.messaging.depends_on, jaeger: { condition: 'service_started' } };
    const problems = tracingProfileProblems(broken, composeTraced);
    expectProblem(problems, /services with profiles are \[jaeger\]/);
    expectProblem(problems, /messaging depends on jaeger, which only the tracing profile starts/);
  });

  it('compose: tracing on by default, or a services endpoint that is not the collector', () => {
    const on = parseCompose(composeText.replace('${OTEL_EXPORTER_OTLP_ENDPOINT:-}', 'http://otel-collector:4318'));
    expectProblem(tracingProfileProblems(on, composeTraced), /OTEL_EXPORTER_OTLP_ENDPOINT is "http:\/\/otel-collector:4318" by default/);
    const wrong = parseCompose(composeText, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
    expectProblem(tracingProfileProblems(compose, wrong), /is "http:\/\/collector:4318" with OTEL_EXPORTER_OTLP_ENDPOINT/);
  });

  it('compose: a collector config that is not mounted', () => {
    const broken = clone(compose);
    broken.services['otel-collector'].volumes = [];
    expectProblem(tracingProfileProblems(broken, composeTraced), /--config \/etc\/otelcol\/config.yaml is not a mounted file/);
  });

  it('collector: a receiver on the wrong port, and no exporter to Jaeger', () => {
    const broken: Data = clone(collectorConfig);
    broken.receivers.otlp.protocols.http.endpoint = '0.0.0.0:4319';
    broken.exporters['otlp/jaeger'].endpoint = 'jaeger:14250';
    const problems = collectorConfigProblems(broken);
    expectProblem(problems, /listens on 0.0.0.0:4319, want 0.0.0.0:4318/);
    expectProblem(problems, /no traces exporter sends OTLP to jaeger:4317/);
  });

  it('dashboard: a misspelt series, and an operations series left off', () => {
    const broken: Data = clone(dashboard);
    const panel = broken.panels.find((p: Data) => p.targets?.some((t: Data) => /bullmq_job_wait_seconds/.test(t.expr)));
    panel.targets = [{ refId: 'A', expr: 'sum(rate(bullmq_job_waits_seconds_count[5m]))' }];
    const problems = dashboardProblems(broken, exposed);
    expectProblem(problems, /reads bullmq_job_waits_seconds_count, which no process exposes/);
    expectProblem(problems, /no panel shows bullmq_job_wait_seconds/);
  });

  it('compose: variables are substituted as compose does', () => {
    expect(parseCompose('a: "${X:-d}|${X-e}|${X}|$$"', {})).toEqual({ a: 'd|e||$' });
    expect(parseCompose('a: "${X:-d}|${X-e}|${X}"', { X: '' })).toEqual({ a: 'd||' });
    expect(parseCompose('a: "${X:-d}|${X-e}|${X}"', { X: 'v' })).toEqual({ a: 'v|v|v' });
  });
});

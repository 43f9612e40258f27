import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Every hook in the code
 * first reads `tracing.enabled` (one property read): with tracing off nothing else runs, no
 * span objects, no header maps, no context switches, so the hot paths cost what they did.
 *
 * On, each process exports its spans over OTLP/HTTP (the SDK reads the standard OTEL_* variables:
 * endpoint, headers, batch delays, sampler) with `service.name` set to the service. The W3C trace
 * context travels in NATS headers (commands and JetStream events), in BullMQ job data (`_trace`)
 * and in client events waiting in a queue, so a sent message is one trace from the gateway to the
 * long-poll that hands it over.
 */
export const tracing = { enabled: false };

const TRACER = 'teamchat';
let shutdown: (() => Promise<void>) | undefined;

/** Starts the SDK when an endpoint is configured; call before anything else in the process. */
export function startTracing(service: string): boolean {
  const env = process.env; // the SDK reads its settings (OTEL_*) from there too
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || tracing.enabled) return tracing.enabled;
  // Only traces: no OTLP logs or metrics (metrics are Prometheus, on /metrics).
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_METRICS_EXPORTER ??= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || service,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
  });
  sdk.start();
  shutdown = () => sdk.shutdown();
  tracing.enabled = true;
  return true;
}

/** Flushes the spans still buffered (at process shutdown). */
export async function stopTracing(): Promise<void> {
  await shutdown?.().catch(() => undefined);
}

export const tracer = () => trace.getTracer(TRACER);

/** Header carriers: NATS `MsgHdrs` (get/set) and plain objects (HTTP headers, job data). */
interface HeaderLike {
  get(key: string): string;
  set(key: string, value: string): void;
}
const natsSetter: TextMapSetter<HeaderLike> = { set: (carrier, key, value) => carrier.set(key, value) };
const natsGetter: TextMapGetter<HeaderLike | undefined> = {
  get: (carrier, key) => carrier?.get(key) || undefined,
  keys: () => ['traceparent', 'tracestate'],
};
const recordSetter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => (carrier[key] = value) };
const recordGetter: TextMapGetter<Record<string, unknown> | undefined> = {
  get: (carrier, key) => {
    const value = carrier?.[key];
    return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
  },
  keys: (carrier) => Object.keys(carrier ?? {}),
};

/** Writes the context (the active one by default) into NATS headers. */
export function injectNats(headers: HeaderLike, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, natsSetter);
}

/** The context NATS headers carry (the root context when they carry none). */
export function extractNats(headers: HeaderLike | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers, natsGetter);
}

/** The context as a `traceparent` string (for job data and stored events), or undefined. */
export function traceparentOf(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier, recordSetter);
  return carrier.traceparent;
}

/** The context a `traceparent` string names. */
export function contextOf(traceparent: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent }, recordGetter);
}

/** The context HTTP request headers carry. */
export function extractHttp(headers: Record<string, unknown>): Context {
  return propagation.extract(ROOT_CONTEXT, headers, recordGetter);
}

/**
 * Runs `work` in a span that is a child of `parent` (the active context by default), ending it
 * when `work` settles and marking it failed when it throws. Only call when `tracing.enabled`.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * BullMQ: the job data with the current trace context added (`_trace`), for a worker to
 * continue the trace; the data unchanged when tracing is off. Job schemas ignore the key.
 */
export function withTraceData<T extends object>(data: T): T {
  if (!tracing.enabled) return data;
  const traceparent = traceparentOf();
  return traceparent ? { ...data, _trace: traceparent } : data;
}

/** BullMQ: runs a job in a CONSUMER span continuing the trace its data carries. */
export function traceJob<T>(queue: string, job: { id?: string; name: string; data: unknown }, work: () => Promise<T>): Promise<T> {
  if (!tracing.enabled) return work();
  const carried = (job.data as { _trace?: unknown } | null)?._trace;
  return inSpan(
    `${queue} process`,
    {
      kind: SpanKind.CONSUMER,
      parent: contextOf(typeof carried === 'string' ? carried : undefined),
      attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'messaging.message.id': job.id ?? '', 'bullmq.job.name': job.name },
    },
    () => work(),
  );
}

export { SpanKind, SpanStatusCode, context as otelContext, trace as otelTrace, type Context as TraceContext, type Span };

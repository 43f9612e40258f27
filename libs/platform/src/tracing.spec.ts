import { headers } from 'nats';
import {
  contextOf,
  extractNats,
  inSpan,
  injectNats,
  otelContext,
  otelTrace,
  startTracing,
  stopTracing,
  traceJob,
  traceparentOf,
  tracing,
  withTraceData,
} from './tracing';

describe('tracing', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  describe('off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
    it('does not start, and the hooks pass everything through untouched', async () => {
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      expect(startTracing('test')).toBe(false);
      expect(tracing.enabled).toBe(false);
      const data = { id: 1 };
      expect(withTraceData(data)).toBe(data);
      let ran = 0;
      await expect(traceJob('q', { name: 'j', data }, async () => ++ran)).resolves.toBe(1);
      expect(traceparentOf()).toBeUndefined();
    });

    it('treats an empty endpoint as off', () => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = '';
      expect(startTracing('test')).toBe(false);
      expect(tracing.enabled).toBe(false);
    });
  });

  describe('on', () => {
    beforeAll(() => {
      // Nothing listens there: the spans are dropped at the flush, which is fine for this test.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
      process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '200';
      expect(startTracing('unit')).toBe(true);
      expect(tracing.enabled).toBe(true);
    });

    it('carries the context through NATS headers, job data and a traceparent string', async () => {
      let traceId = '';
      let jobParent = '';
      let jobSpan = '';
      let rootSpan = '';
      await inSpan('root', {}, async (root) => {
        traceId = root.spanContext().traceId;
        rootSpan = root.spanContext().spanId;
        const carrier = headers();
        injectNats(carrier);
        expect(carrier.get('traceparent')).toBe(`00-${traceId}-${root.spanContext().spanId}-01`);
        expect(otelTrace.getSpanContext(extractNats(carrier))?.traceId).toBe(traceId);
        expect(otelTrace.getSpanContext(contextOf(traceparentOf()))?.spanId).toBe(root.spanContext().spanId);
        const job = { name: 'deliver', data: withTraceData({ id: 7 }) };
        expect(job.data).toEqual({ id: 7, _trace: traceparentOf() });
        // The worker runs elsewhere: outside this context, the job data alone continues the trace.
        await otelContext.with(otelContext.active().deleteValue(Symbol.for('OpenTelemetry Context Key SPAN')), () =>
          traceJob('scheduled-delivery', job, async () => {
            jobParent = otelTrace.getSpanContext(otelContext.active())!.traceId;
            jobSpan = otelTrace.getSpanContext(otelContext.active())!.spanId;
          }),
        );
      });
      expect(jobParent).toBe(traceId);
      expect(jobSpan).not.toBe(rootSpan);
      await expect(inSpan('failing', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      // Export over OTLP across real processes is covered by apps/gateway/test/observability.spec.ts.
      await stopTracing();
    });
  });
});

/**
 * Tracing and metrics across the whole system. A real OTLP/HTTP receiver (a small HTTP server
 * started here, recording the JSON the exporters POST to /v1/traces) stands in for a collector:
 * one POST /messages must show as one trace from the gateway through messaging, Postgres and
 * JetStream to the fan-out and the long-poll that handed the message over. Then every service's
 * /metrics must show the series added for operations, with samples after the traffic.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { SERVICES } from '@teamchat/contracts';
import { EventQueueClient, Factory, TestSystem, expectError, type TestUser } from '@teamchat/testing';

interface RecordedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

type OtlpValue = { stringValue?: string };
type OtlpRequest = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[] }[];
  }[];
};

/** An OTLP/HTTP (JSON) trace receiver: records every span, answers as a collector does. */
class OtlpReceiver {
  readonly spans: RecordedSpan[] = [];
  readonly requests: string[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        try {
          let body = Buffer.concat(chunks);
          if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
          this.record(JSON.parse(body.toString('utf8')) as OtlpRequest);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private record(request: OtlpRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, kind: span.kind });
        }
      }
    }
  }

  ofTrace(traceId: string): RecordedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The send command's span name (subjects carry the test's NATS_SUBJECT_PREFIX). */
const SEND_COMMAND = /^command \S*messaging\.send_message\.v1$/;

const eventually = async <T>(probe: () => T | undefined, what: string, timeoutMs = 15000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('observability: one trace per sent message, and the operations metrics', () => {
  const receiver = new OtlpReceiver();
  let system: TestSystem;
  let sub: string;
  let member: TestUser, friend: TestUser, admin: TestUser;
  let channel: { id: number; name: string };

  const as = (user: TestUser) => ({ auth: user, subdomain: sub });
  const metricsOf = async (service: (typeof SERVICES)[number]): Promise<string> => {
    const res = await fetch(`http://127.0.0.1:${system.ports[service]}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    const endpoint = await receiver.start();
    system = await TestSystem.start({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' } });
    const factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'traced' });
    ({ member, admin } = org);
    sub = org.realm.subdomain;
    friend = await factory.user(org.realm, { fullName: 'Friend' });
    channel = await factory.channel(org.realm, { name: 'ops', subscribers: [member, friend, admin] });
  });
  afterAll(async () => {
    await system?.stop();
    await receiver.stop();
  });

  describe('tracing', () => {
    it('follows one POST /messages from the gateway to the long-poll that delivered it', async () => {
      const queue = await EventQueueClient.register(system.api, as(friend), { event_types: JSON.stringify(['message']) });
      // A poll waiting before the message is sent: the message wakes it.
      const waiting = queue.poll();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const sent = await system.api.post<{ id: number }>('/messages', { type: 'stream', to: channel.name, topic: 'trace me', content: 'hello' } as never, as(member));
      expect(sent.status).toBe(200);

      // The request id is the trace id (32 hex digits), in the response header and thus in every log line.
      const traceId = sent.headers.get('x-request-id')!;
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);

      const delivered = await waiting;
      const message = delivered.find((event) => event.type === 'message');
      expect(message).toBeDefined();
      expect((message!.message as { id: number }).id).toBe(sent.body.id);
      // The trace context stored with the event is never shown to clients.
      expect(Object.keys(message!)).not.toContain('_tp');

      const spans = await eventually(() => {
        const found = receiver.ofTrace(traceId);
        return found.some((s) => s.name.endsWith(' deliver')) && found.some((s) => s.name.startsWith('pg ')) ? found : undefined;
      }, `the spans of trace ${traceId}`);
      const names = (service: string) => spans.filter((s) => s.service === service).map((s) => s.name);

      // The gateway: the HTTP request, its command call, the fan-out and the delivering poll.
      expect(names('gateway')).toEqual(expect.arrayContaining(['POST /api/v1/messages', 'GET /api/v1/events deliver']));
      expect(names('gateway').some((name) => SEND_COMMAND.test(name))).toBe(true);
      expect(names('gateway').some((name) => /^fanout .*message_sent/.test(name))).toBe(true);
      // Messaging: the command, its statements in Postgres, the JetStream publication.
      expect(names('messaging').some((name) => SEND_COMMAND.test(name))).toBe(true);
      expect(names('messaging').some((name) => name.startsWith('pg '))).toBe(true);
      expect(names('messaging').some((name) => /^publish .*message_sent/.test(name))).toBe(true);

      // One tree: a single root (the HTTP request), every other span's parent in the trace.
      const ids = new Set(spans.map((s) => s.spanId));
      const roots = spans.filter((s) => !s.parentSpanId);
      expect(roots.map((s) => s.name)).toEqual(['POST /api/v1/messages']);
      for (const span of spans) if (span.parentSpanId) expect(ids.has(span.parentSpanId)).toBe(true);
      // The chain itself: request → call → command → publish → fan-out → delivery.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const chain: string[] = [];
      for (let span = spans.find((s) => s.name.endsWith(' deliver')); span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) {
        chain.unshift(`${span.service}:${span.name.replace(/ \S*(message_sent|send_message)\S*$/, '')}`);
      }
      expect(chain[0]).toBe('gateway:POST /api/v1/messages');
      expect(chain).toContain('gateway:command');
      expect(chain).toContain('messaging:command');
      expect(chain).toContain('messaging:publish');
      expect(chain).toContain('gateway:fanout');
      expect(chain[chain.length - 1]).toBe('gateway:GET /api/v1/events deliver');
    });

    it('exports over OTLP/HTTP JSON from every service', async () => {
      expect(receiver.requests.length).toBeGreaterThan(0);
      expect(receiver.requests.every((r) => r.startsWith('POST /v1/traces application/json'))).toBe(true);
      // Every service answered at least one command (the register state, the readiness calls) by now.
      await eventually(() => (['gateway', 'messaging', 'users-groups', 'presence', 'scheduler', 'push'].every((s) => receiver.spans.some((span) => span.service === s)) ? true : undefined), 'spans from every service');
    });

    it('continues a caller-sent traceparent, and a failed request is a trace too', async () => {
      const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const res = await system.api.post('/messages', { type: 'stream', to: 'no-such-channel', topic: 't', content: 'x' } as never, { ...as(member), headers: { traceparent: parent } });
      expectError(res, 400, 'STREAM_DOES_NOT_EXIST', "Channel 'no-such-channel' does not exist", { stream: 'no-such-channel' });
      expect(res.headers.get('x-request-id')).toBe('0af7651916cd43dd8448eb211c80319c');
      const spans = await eventually(() => {
        const found = receiver.ofTrace('0af7651916cd43dd8448eb211c80319c');
        // Each service exports on its own schedule: wait for both ends of the trace.
        return found.some((s) => s.service === 'messaging') && found.some((s) => s.name === 'POST /api/v1/messages') ? found : undefined;
      }, 'the continued trace');
      expect(spans.find((s) => s.name === 'POST /api/v1/messages')!.parentSpanId).toBe('b7ad6b7169203331');
    });
  });

  describe('metrics', () => {
    it('shows command latency and errors, BullMQ depth and job latency, and the gateway event queues after traffic', async () => {
      // Traffic: a message, a refused message, a topic deletion (a job), a scheduled message due at once.
      await system.api.post('/messages', { type: 'stream', to: channel.name, topic: 'gone soon', content: 'bye' } as never, as(member));
      await system.api.post('/messages', { type: 'stream', to: 'no-such-channel', topic: 't', content: 'x' } as never, as(member));
      const deleted = await system.api.post<{ complete: boolean }>(`/streams/${channel.id}/delete_topic`, { topic_name: 'gone soon' } as never, as(admin));
      expect(deleted.status).toBe(200);
      const scheduled = await system.api.post(
        '/scheduled_messages',
        { type: 'stream', to: channel.id, topic: 'later', content: 'soon', scheduled_delivery_timestamp: Math.ceil(Date.now() / 1000) + 1 } as never,
        as(member),
      );
      expect(scheduled.status).toBe(200);

      const gateway = await metricsOf('gateway');
      expect(gateway).toMatch(/command_call_duration_seconds_count\{subject="[^"]*messaging\.send_message\.v1",outcome="ok"\} [1-9]/);
      expect(gateway).toMatch(/command_call_duration_seconds_count\{subject="[^"]*messaging\.send_message\.v1",outcome="STREAM_DOES_NOT_EXIST"\} [1-9]/);
      expect(gateway).toMatch(/^event_fanout_lag_seconds_count [1-9]/m);
      expect(gateway).toMatch(/^event_queues_registered_total [1-9]/m);
      expect(gateway).toMatch(/^event_queues_deleted_total 0/m);
      expect(gateway).toMatch(/^event_long_polls_in_progress \d/m);
      expect(gateway).toMatch(/^events_delivered_total [1-9]/m);

      const messaging = await metricsOf('messaging');
      expect(messaging).toMatch(/command_duration_seconds_count\{subject="[^"]*messaging\.send_message\.v1",outcome="ok"\} [1-9]/);
      expect(messaging).toMatch(/command_errors_total\{subject="[^"]*messaging\.send_message\.v1",code="STREAM_DOES_NOT_EXIST"\} [1-9]/);
      expect(messaging).toMatch(/bullmq_job_duration_seconds_count\{queue="topic-deletion",outcome="completed"\} 1/);
      expect(messaging).toMatch(/bullmq_job_wait_seconds_count\{queue="topic-deletion"\} 1/);
      expect(messaging).toMatch(/bullmq_queue_jobs\{queue="topic-deletion",state="wait"\} 0/);

      const scheduler = await (async () => {
        const deadline = Date.now() + 15000;
        for (;;) {
          const text = await metricsOf('scheduler');
          if (/bullmq_job_duration_seconds_count\{queue="scheduled-delivery",outcome="completed"\} 1/.test(text) || Date.now() > deadline) return text;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      expect(scheduler).toMatch(/bullmq_job_duration_seconds_count\{queue="scheduled-delivery",outcome="completed"\} 1/);
      expect(scheduler).toMatch(/bullmq_queue_jobs\{queue="scheduled-delivery",state="delayed"\} 0/);
      expect(scheduler).toMatch(/command_call_duration_seconds_count\{subject="[^"]*messaging\.send_scheduled_message\.v1",outcome="ok"\} 1/);

      // Every command service has the command series (answered register-state commands at least).
      for (const service of SERVICES.filter((s) => s !== 'gateway' && s !== 'uploads')) {
        const text = await metricsOf(service);
        expect(text).toMatch(/command_duration_seconds_count\{subject="[^"]+",outcome="ok"\} [1-9]/);
        expect(text).toContain('# TYPE command_errors_total counter');
        expect(text).toContain('# TYPE command_call_duration_seconds histogram');
      }
      const uploads = await metricsOf('uploads');
      expect(uploads).toContain('# TYPE command_duration_seconds histogram');
      expect(uploads).toContain('# TYPE command_errors_total counter');
    });
  });

  describe('database connections', () => {
    it("carry their service's name, so pg_stat_activity tells whose each backend is", async () => {
      await system.api.post('/messages', { type: 'stream', to: channel.name, topic: 'named', content: 'whose?' } as never, as(member));
      const rows = await system.pg.query<{ name: string }>({
        text: `SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        values: [],
      });
      const names = rows.map((row) => row.name);
      expect(names).toContain('teamchat-messaging');
      // Named after services only (the harness's own connections are the unnamed rest).
      for (const name of names.filter((n) => n !== '')) expect(SERVICES.map((s) => `teamchat-${s}`)).toContain(name);
    });
  });
});

import { SpanKind, contextOf, tracer, type Span } from '@teamchat/platform';
import { TRACE_KEY } from './fanout-routing';

/**
 * With tracing on, the client events a poll hands over carry their fan-out's trace context
 * (TRACE_KEY, put there by FanoutRouting). This takes it off each event (clients never see it)
 * and opens one `events deliver` span per trace, child of that fan-out, so the message's trace
 * ends with the long-poll that delivered it. The caller ends the spans once the answer is written.
 */
export function traceDeliveries(events: Record<string, unknown>[], queueId: string, requestId: string): Span[] {
  const byTrace = new Map<string, number>();
  for (const event of events) {
    const traceparent = event[TRACE_KEY];
    if (typeof traceparent !== 'string') continue;
    delete event[TRACE_KEY];
    byTrace.set(traceparent, (byTrace.get(traceparent) ?? 0) + 1);
  }
  return [...byTrace].map(([traceparent, count]) =>
    tracer().startSpan(
      'GET /api/v1/events deliver',
      { kind: SpanKind.SERVER, attributes: { 'teamchat.queue_id': queueId, 'teamchat.events': count, 'teamchat.poll_request_id': requestId } },
      contextOf(traceparent),
    ),
  );
}

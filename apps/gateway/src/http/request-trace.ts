import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, SpanStatusCode, extractHttp, otelContext, otelTrace, tracer, tracing, type TraceContext } from '@teamchat/platform';

const TRACE = Symbol('trace context');
const POLL_PATH = '/api/v1/events';
type Traced = IncomingMessage & { [TRACE]?: TraceContext };

/**
 * With tracing on, every request is a SERVER span (continuing a `traceparent` the caller sent),
 * ended when the response is; its trace id becomes the request id, so a log line's requestId
 * finds the trace. Returns that id, or undefined with tracing off (nothing else runs then).
 */
export function traceRequest(req: IncomingMessage, res: ServerResponse & { locals?: Record<string, unknown> }): string | undefined {
  if (!tracing.enabled) return undefined;
  const parent = extractHttp(req.headers);
  const span = tracer().startSpan(`${req.method} request`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } }, parent);
  (req as Traced)[TRACE] = otelTrace.setSpan(parent, span);
  res.once('close', () => {
    const route =
      (res.locals?.route as string | undefined) ??
      ((req as { route?: { path?: string } }).route?.path || undefined) ??
      // GET /events is served ahead of Express (PollEventsRoute), with no route object.
      (req.url?.split('?')[0] === POLL_PATH ? POLL_PATH : undefined);
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return span.spanContext().traceId;
}

/**
 * Middleware (installed only with tracing on), after body parsing: the rest of the request runs
 * in its trace context again (body parsing runs on stream events, which lose the async context),
 * so the commands it calls carry the trace on.
 */
export function restoreRequestTrace(req: IncomingMessage, _res: ServerResponse, next: () => void): void {
  const ctx = (req as Traced)[TRACE];
  if (ctx) otelContext.with(ctx, next);
  else next();
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { Inject, Injectable } from '@nestjs/common';
import { Realtime } from '@teamchat/contracts';
import { LOGGER, MetricsService, tracing } from '@teamchat/platform';
import { decodeParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { AdmitCaller } from '../auth/admit-caller';
import { loggedIn, rawParams, type ApiRequest } from '../http/request-context';
import { identifyRequest } from '../http/request-id.middleware';
import { mountedElsewhere } from '../http/route.decorator';
import { sendSuccessJson, successBody } from '../http/success-envelope.interceptor';
import { sendError } from '../http/zulip-exception.filter';
import { LongPoll } from './long-poll';
import { traceDeliveries } from './delivery-trace';

/** The path GET /events is served at, and the route label it is measured under (see httpMetrics). */
export const EVENTS_ROUTE = '/api/v1/events';

mountedElsewhere(Realtime.getEvents);

type PollRequest = IncomingMessage & Pick<ApiRequest, 'ctx'>;

const ANSWERED = { method: 'GET', route: EVENTS_ROUTE, status: '200' };

/**
 * GET /events, the one route every client calls again as soon as it is answered, served by
 * FrontDoor on Node's own request event ahead of Express and Nest: measured under `npm run bench:events`,
 * their routing, response helpers and pipeline cost more CPU per poll than the poll itself.
 * The rules are the same functions the other routes use: identifyRequest, AdmitCaller.identify,
 * rawParams, decodeParams, sendSuccessJson, sendError. Event polling is not rate limited (as in Zulip).
 * Its answer's headers are written in one call, `X-Request-Id` with them: set beforehand, as
 * the other routes do, it made Node set each of the answer's headers one by one (about 1.5 µs
 * of a poll's CPU: see docs/architecture.md, Event queues).
 */
@Injectable()
export class PollEventsRoute {
  constructor(
    private readonly admission: AdmitCaller,
    private readonly longPoll: LongPoll,
    private readonly metrics: MetricsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether the request is a poll (GET /api/v1/events, or /json/events once FrontDoor has marked it); any other is for the other handlers. */
  handles(req: IncomingMessage): boolean {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    return (queryAt < 0 ? url : url.slice(0, queryAt)) === EVENTS_ROUTE;
  }

  /** The poll itself, for a request `handles` accepted. */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const requestId = identifyRequest(req, res);
    // A poll's body is never read: it is discarded, so a client still sending one reads the answer.
    req.resume();
    const request = req as PollRequest;
    try {
      const admitting = this.admission.identify(request, 'user');
      if (admitting) await admitting;
      const { realm, user } = loggedIn(request.ctx);
      const { values: params, ignored } = decodeParams(Realtime.getEventsParams, rawParams({ method: 'GET', query: queryOf(req.url ?? ''), body: undefined }));
      request.ctx.ignored = ignored;
      // A poll may wait longer than its credential is remembered: it is kept checked meanwhile.
      const release = params.dont_block ? undefined : this.admission.hold(request);
      let events: string[];
      try {
        events = await this.longPoll.poll({
          queueId: params.queue_id,
          realmId: realm.id,
          userId: user.id,
          lastEventId: params.last_event_id,
          dontBlock: params.dont_block,
          // `on`, not `once`: 'close' comes once per response, and `once` wraps every listener.
          onClose: (listener) => res.on('close', listener),
        });
      } finally {
        release?.();
      }
      const parsed = tracing.enabled ? events.map((event) => JSON.parse(event) as Record<string, unknown>) : undefined;
      const spans = parsed ? traceDeliveries(parsed, params.queue_id, request.ctx.requestId) : undefined;
      if (!res.writableEnded) {
        // Untraced, the stored texts go out as they are: parsing and serializing them again was
        // most of a delivery's CPU.
        if (parsed) sendSuccessJson(res, JSON.stringify(successBody({ events: parsed, queue_id: params.queue_id }, ignored)), requestId);
        else sendSuccessJson(res, eventsAnswer(events, params.queue_id, ignored), requestId);
        this.metrics.delivered(events.length);
        this.answered(startedAt, res);
      }
      if (spans) for (const span of spans) span.end();
    } catch (error) {
      if (!res.writableEnded) {
        if (!res.headersSent) res.setHeader('X-Request-Id', requestId);
        sendError(request, res, error, this.logger);
        this.answered(startedAt, res);
      }
    }
  }

  /**
   * The poll's time, as httpMetrics measures every other route, taken when its answer is
   * written (a 'finish' listener per poll cost more than the measurement); a client gone first
   * is not counted, as there.
   */
  private answered(startedAt: number, res: ServerResponse): void {
    const labels = res.statusCode === 200 ? ANSWERED : { method: 'GET', route: EVENTS_ROUTE, status: String(res.statusCode) };
    this.metrics.httpDuration.observe(labels, (performance.now() - startedAt) / 1000);
  }
}

/** The query string parsed as Express's "simple" query parser does (node's querystring). */
const queryOf = (url: string) => {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? {} : parseQueryString(url.slice(queryAt + 1));
};

/**
 * What sendSuccess would write for `{ events, queue_id }` (the same text: the events are JSON
 * object texts, `id` first), with the events spliced in as stored.
 */
export function eventsAnswer(events: string[], queueId: string, ignored: string[]): string {
  const unsupported = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : '';
  return `{"result":"success","msg":"","events":[${events.join(',')}],"queue_id":${JSON.stringify(queueId)}${unsupported}}`;
}

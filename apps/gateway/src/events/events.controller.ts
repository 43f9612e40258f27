import type { ServerResponse } from 'node:http';
import { Controller, Req, Res } from '@nestjs/common';
import { Realtime } from '@teamchat/contracts';
import { MetricsService } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { ParamsOf } from '../http/endpoint-request';
import { loggedIn, type ApiRequest } from '../http/request-context';
import { Route } from '../http/route.decorator';
import { sendSuccessJson, successBody } from '../http/success-envelope.interceptor';
import { EventQueueStore } from './event-queue.store';
import { QueueMirror } from './queue-mirror';
import { RegisterQueue } from './register-queue';

/** The event queue endpoints. The gateway serves them itself: queues live in Redis. */
@Controller()
export class EventsController {
  constructor(
    private readonly registration: RegisterQueue,
    private readonly store: EventQueueStore,
    private readonly mirror: QueueMirror,
    private readonly metrics: MetricsService,
  ) {}

  @Route(Realtime.register)
  async register(@Req() req: ApiRequest, @Res() res: ServerResponse, @ParamsOf(Realtime.register) params: DecodedParams<typeof Realtime.registerParams>): Promise<void> {
    const { realm, user } = loggedIn(req.ctx);
    const { state, serialized } = await this.registration.register(realm, user, params, req.ctx.requestId, req.ctx.time);
    this.metrics.eventQueuesRegistered.inc();
    // The parts serialized already (the people, megabytes in a large organization) go in as they are.
    const body = JSON.stringify(successBody(state, req.ctx.ignored ?? []));
    const spliced = Object.entries(serialized).map(([key, json]) => `,${JSON.stringify(key)}:${json}`).join('');
    sendSuccessJson(res, `${body.slice(0, -1)}${spliced}}`);
  }

  // GET /events is served by PollEventsRoute, ahead of Express and this pipeline.

  @Route(Realtime.deleteQueue)
  async deleteQueue(@Req() req: ApiRequest, @ParamsOf(Realtime.deleteQueue) params: DecodedParams<typeof Realtime.deleteQueueParams>) {
    const { realm, user } = loggedIn(req.ctx);
    const queue = await this.store.ownQueue(params.queue_id, realm.id, user.id);
    await this.store.delete(queue);
    // Every replica forgets it on the wake channel; this one at once, for the caller's next poll here.
    this.mirror.forget(queue.queueId);
    this.metrics.eventQueuesDeleted.inc();
    return {};
  }
}

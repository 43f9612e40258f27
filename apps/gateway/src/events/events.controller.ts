import { Controller, Delete, Post, Req } from '@nestjs/common';
import type { DecodedParams } from '@teamchat/zulip';
import { ParamsOf } from '../http/api-command.decorator';
import type { ApiRequest } from '../http/request-context';
import { EventQueueStore } from './event-queue.store';
import { deleteQueueParams, registerParams } from './event-params';
import { RegisterQueue } from './register-queue';

/** The event queue endpoints. The gateway serves them itself: queues live in Redis. */
@Controller()
export class EventsController {
  constructor(
    private readonly registration: RegisterQueue,
    private readonly store: EventQueueStore,
  ) {}

  @Post('register')
  register(@Req() req: ApiRequest, @ParamsOf(registerParams) params: DecodedParams<typeof registerParams>) {
    return this.registration.register(req.ctx.realm!, req.ctx.user!, params, req.ctx.requestId);
  }

  // GET /events is served by PollEventsMiddleware, ahead of this pipeline.

  @Delete('events')
  async deleteQueue(@Req() req: ApiRequest, @ParamsOf(deleteQueueParams) params: DecodedParams<typeof deleteQueueParams>) {
    const queue = await this.store.ownQueue(params.queue_id, req.ctx.realm!.id, req.ctx.user!.id);
    await this.store.delete(queue);
    return {};
  }
}

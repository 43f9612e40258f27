import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { DecodedParams } from '@teamchat/zulip';
import { ParamsOf } from '../http/api-command.decorator';
import { NotRateLimited } from '../http/rate-limit.decorator';
import type { ApiRequest } from '../http/request-context';
import { EventQueueStore } from './event-queue.store';
import { deleteQueueParams, getEventsParams, registerParams } from './event-params';
import { LongPoll } from './long-poll';
import { RegisterQueue } from './register-queue';

/** The event queue endpoints. The gateway serves them itself: queues live in Redis. */
@Controller()
export class EventsController {
  constructor(
    private readonly registration: RegisterQueue,
    private readonly store: EventQueueStore,
    private readonly longPoll: LongPoll,
  ) {}

  @Post('register')
  register(@Req() req: ApiRequest, @ParamsOf(registerParams) params: DecodedParams<typeof registerParams>) {
    return this.registration.register(req.ctx.realm!, req.ctx.user!, params, req.ctx.requestId);
  }

  @Get('events')
  @NotRateLimited()
  async events(
    @Req() req: ApiRequest,
    @Res({ passthrough: true }) res: Response,
    @ParamsOf(getEventsParams) params: DecodedParams<typeof getEventsParams>,
  ) {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const events = await this.longPoll.poll({
      queueId: params.queue_id,
      realmId: req.ctx.realm!.id,
      userId: req.ctx.user!.id,
      lastEventId: params.last_event_id,
      dontBlock: params.dont_block,
      closed,
    });
    return { events, queue_id: params.queue_id };
  }

  @Delete('events')
  async deleteQueue(@Req() req: ApiRequest, @ParamsOf(deleteQueueParams) params: DecodedParams<typeof deleteQueueParams>) {
    const queue = await this.store.ownQueue(params.queue_id, req.ctx.realm!.id, req.ctx.user!.id);
    await this.store.delete(queue);
    return {};
  }
}

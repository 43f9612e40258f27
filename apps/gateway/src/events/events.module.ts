import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventFanout } from './event-fanout.service';
import { FanoutRouting } from './fanout-routing';
import { EventQueueStore } from './event-queue.store';
import { EventsController } from './events.controller';
import { LongPoll } from './long-poll';
import { MessageNotificationsQueue } from './notifications/message-notifications.queue';
import { PollEventsRoute } from './poll-events.route';
import { QueueMirror } from './queue-mirror';
import { QueueWakeups } from './queue-wakeups';
import { RegisterPeople } from './register-people';
import { RegisterQueue } from './register-queue';

/** Client event queues: POST /register, GET/DELETE /events, and the fan-out that fills them. */
@Module({
  imports: [AuthModule],
  controllers: [EventsController],
  providers: [EventQueueStore, QueueMirror, QueueWakeups, LongPoll, RegisterPeople, RegisterQueue, FanoutRouting, EventFanout, PollEventsRoute, MessageNotificationsQueue],
  exports: [PollEventsRoute],
})
export class EventsModule {}

import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { DeliverScheduledMessage } from './delivery/deliver-scheduled-message.use-case';
import { DeliveryQueue } from './delivery/delivery.queue';
import { DeliveryWorker } from './delivery/delivery.worker';
import { FailureNotice } from './delivery/failure-notice';
import { RecoverDeliveries } from './delivery/recover-deliveries.use-case';
import { CreateScheduledMessage } from './scheduled-messages/create-scheduled-message.use-case';
import { DeleteScheduledMessage } from './scheduled-messages/delete-scheduled-message.use-case';
import { ListScheduledMessages } from './scheduled-messages/list-scheduled-messages.use-case';
import { ScheduledMessagesHandler } from './scheduled-messages/scheduled-messages.handler';
import { ScheduledMessagesRepository } from './data/scheduled-messages.repository';
import { UpdateScheduledMessage } from './scheduled-messages/update-scheduled-message.use-case';
import { DeliverReminder } from './delivery/deliver-reminder.use-case';
import { CreateReminder } from './reminders/create-reminder.use-case';
import { DeleteReminder } from './reminders/delete-reminder.use-case';
import { ListReminders } from './reminders/list-reminders.use-case';
import { RemindersHandler } from './reminders/reminders.handler';

/**
 * The scheduler service: scheduled messages and reminders (`scheduled_messages`) and their delivery worker,
 * which runs in every replica (BullMQ queue `scheduled-delivery`).
 */
@Module({
  imports: [DbModule],
  controllers: [ScheduledMessagesHandler, RemindersHandler],
  providers: [
    ScheduledMessagesRepository,
    CreateScheduledMessage,
    ListScheduledMessages,
    UpdateScheduledMessage,
    DeleteScheduledMessage,
    DeliveryQueue,
    DeliveryWorker,
    DeliverScheduledMessage,
    RecoverDeliveries,
    FailureNotice,
    CreateReminder,
    ListReminders,
    DeleteReminder,
    DeliverReminder,
  ],
})
export class SchedulerModule {}

import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import type { Scheduler, UserCommand } from '@teamchat/contracts';
import { resourceNotFound, type DecodedParams } from '@teamchat/zulip';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';
import { ReminderEvents } from './reminder-events';

type Params = DecodedParams<typeof Scheduler.reminderPathParams>;

/** DELETE /reminders/{reminder_id} (access_reminder, do_delete_reminder): the caller's own only; its job is dropped. */
@Injectable()
export class DeleteReminder {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly queue: DeliveryQueue,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const stored = await this.scheduledMessages.ownReminder(realm.id, user.id, params.reminder_id);
    if (!stored) throw resourceNotFound('Reminder does not exist');
    await this.outbox.runCold(async (tx) => {
      if (!(await this.scheduledMessages.deleteReminder(realm.id, user.id, stored.id, tx))) throw resourceNotFound('Reminder does not exist');
      return { value: undefined, events: [ReminderEvents.removed(stored)] };
    }, requestId);
    await this.queue.cancel(stored.id, stored.version);
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { Scheduler, UserCommand } from '@teamchat/contracts';
import { DeliveryType, ScheduledMessagesRepository } from '../data/scheduled-messages.repository';
import { toReminderRecord } from './reminder-record';

/** GET /reminders, and `reminders` in POST /register (Zulip's get_undelivered_reminders): failed ones included, earliest first. */
@Injectable()
export class ListReminders {
  constructor(private readonly scheduledMessages: ScheduledMessagesRepository) {}

  async execute({ realm, user }: Pick<UserCommand<unknown>, 'realm' | 'user'>): Promise<{ reminders: Scheduler.ReminderRecord[] }> {
    const stored = await this.scheduledMessages.undeliveredOf(realm.id, user.id, DeliveryType.REMIND);
    return { reminders: stored.map(toReminderRecord) };
  }
}

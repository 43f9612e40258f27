import { Injectable } from '@nestjs/common';
import type { UserCommand, Scheduler } from '@teamchat/contracts';
import { toScheduledMessageRecord } from './scheduled-message-record';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';

/** GET /scheduled_messages, and `scheduled_messages` in POST /register: the caller's undelivered ones, failed ones included. */
@Injectable()
export class ListScheduledMessages {
  constructor(private readonly scheduledMessages: ScheduledMessagesRepository) {}

  async execute({ realm, user }: Pick<UserCommand<unknown>, 'realm' | 'user'>): Promise<{ scheduled_messages: Scheduler.ScheduledMessageRecord[] }> {
    const stored = await this.scheduledMessages.undeliveredOf(realm.id, user.id);
    return { scheduled_messages: stored.map(toScheduledMessageRecord) };
  }
}

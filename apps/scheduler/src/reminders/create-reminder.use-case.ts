import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { Messaging, type Scheduler, type UserCommand } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { ScheduledMessagesRepository } from '../data/scheduled-messages.repository';
import { mustBeInFuture } from '../scheduled-messages/recipient-target';
import { ReminderEvents } from './reminder-events';

type Params = DecodedParams<typeof Scheduler.createReminderParams>;

/**
 * POST /reminders (zerver/views/reminders.py create_reminders_message_backend,
 * zerver/actions/reminders.py schedule_reminder_for_message): the time must be in the future;
 * messaging writes the reminder's text about a message the caller can read (with the note) and
 * checks it as the caller's direct message to themselves. Stored as a scheduled message of
 * delivery type REMIND, its delivery job queued like any, the caller's clients told.
 */
@Injectable()
export class CreateReminder {
  constructor(
    private readonly scheduledMessages: ScheduledMessagesRepository,
    private readonly commands: CommandClient,
    private readonly queue: DeliveryQueue,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId, client }: UserCommand<Params>): Promise<{ reminder_id: number }> {
    mustBeInFuture(params.scheduled_delivery_timestamp);
    const note = params.note ?? null;
    const { content, renderedContent } = await this.commands.call(Messaging.reminderContent, {
      realmId: realm.id,
      userId: user.id,
      messageId: params.message_id,
      note,
      requestId,
    });
    const fields = {
      type: 'private' as const,
      streamId: null,
      recipientIds: [user.id],
      topic: '',
      content,
      renderedContent,
      sendingClient: client ?? 'API',
      scheduledAt: new Date(params.scheduled_delivery_timestamp * 1000),
    };
    const stored = await this.outbox.runCold(async (tx) => {
      const row = await this.scheduledMessages.createReminder(realm.id, user.id, fields, { reminderTargetMessageId: params.message_id, reminderNote: note }, tx);
      return { value: row, events: [ReminderEvents.added(row)] };
    }, requestId);
    await this.queue.schedule([stored]);
    return { reminder_id: stored.id };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { MessagingEvents } from '@teamchat/contracts';
import { APP_CONFIG, EventConsumers, LOGGER, type AppConfig, type ConsumedEvents } from '@teamchat/platform';
import type { Logger } from 'pino';
import { PushNotifiedRepository } from '../data/push-notified.repository';
import { MobilePushQueue } from './mobile-push.queue';

const CONSUMER = 'push-read-messages';
const DELETED_CONSUMER = 'push-deleted-messages';

/**
 * Messages read elsewhere drop off the phones (Zulip's do_clear_mobile_push_notifications_for_ids):
 * a durable consumer of messaging's update_message_flags events (read added) shared by the push
 * replicas takes the user's notified messages among them out of push_notified_messages and queues
 * one removal for them; a second consumer does the same for deleted messages (delete_message
 * events), for every user shown them. A redelivered event finds them taken already and queues nothing.
 */
@Injectable()
export class ReadMessagesConsumer extends EventConsumers {
  constructor(
    private readonly notified: PushNotifiedRepository,
    private readonly pushes: MobilePushQueue,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {
    super();
  }

  protected consumedEvents(): ConsumedEvents {
    const { messageFlagsChanged: flags, messagesDeleted: deleted } = MessagingEvents;
    return [
      { name: CONSUMER, subject: flags.subject, handle: (payload) => this.flagsChanged(flags.payload.parse(payload)) },
      { name: DELETED_CONSUMER, subject: deleted.subject, handle: (payload) => this.deleted(deleted.payload.parse(payload)) },
    ];
  }

  /** Deleted messages drop off every phone that shows them (one statement for all their users). */
  async deleted(change: { event: Record<string, unknown> }): Promise<void> {
    const { event } = change;
    const ids = Array.isArray(event.message_ids) ? event.message_ids : [event.message_id];
    const messageIds = ids.filter((id): id is number => typeof id === 'number');
    for (const { realmId, userId, messageIds: shown } of await this.notified.takeOutMessages(messageIds)) {
      await this.pushes.removal({ realmId, userId, messageIds: shown });
    }
  }

  async flagsChanged(change: { users: number[]; event: Record<string, unknown> }): Promise<void> {
    const { event } = change;
    if (event.op !== 'add' || event.flag !== 'read' || !Array.isArray(event.messages)) return;
    const messageIds = event.messages.filter((id): id is number => typeof id === 'number');
    for (const userId of change.users) {
      for (const { realmId, messageIds: shown } of await this.notified.takeOut(userId, messageIds)) {
        await this.pushes.removal({ realmId, userId, messageIds: shown });
      }
    }
  }
}

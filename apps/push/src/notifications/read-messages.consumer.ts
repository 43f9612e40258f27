import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MessagingEvents } from '@teamchat/contracts';
import { APP_CONFIG, DurableConsumer, LOGGER, type AppConfig } from '@teamchat/platform';
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
export class ReadMessagesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer?: DurableConsumer;
  private deletedConsumer?: DurableConsumer;

  constructor(
    private readonly notified: PushNotifiedRepository,
    private readonly pushes: MobilePushQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer({
      natsUrl: this.config.NATS_URL,
      name: CONSUMER,
      subject: MessagingEvents.messageFlagsChanged.subject,
      logger: this.logger,
      handle: (payload) => this.flagsChanged(MessagingEvents.messageFlagsChanged.payload.parse(payload)),
    });
    this.deletedConsumer = new DurableConsumer({
      natsUrl: this.config.NATS_URL,
      name: DELETED_CONSUMER,
      subject: MessagingEvents.messagesDeleted.subject,
      logger: this.logger,
      handle: (payload) => this.deleted(MessagingEvents.messagesDeleted.payload.parse(payload)),
    });
    await Promise.all([this.consumer.start(), this.deletedConsumer.start()]);
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

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.consumer?.stop(), this.deletedConsumer?.stop()]);
  }
}

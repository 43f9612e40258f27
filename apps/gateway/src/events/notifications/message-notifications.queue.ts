import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Push, type Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { QueueDescriptor } from '../queue-descriptor';
import { recipientsWithClientOpen } from './off-app';

/**
 * Where a message is delivered, Zulip decides who is notified of it (maybe_enqueue_notifications):
 * the fan-out hands each delivered message to the push service with the recipients who have a
 * client open, and the push service applies the rules (settings, mutes, mentions) to the rest.
 * One job per message (its id is the job's), so a redelivered fan-out adds nothing. Never
 * throws: a notification that cannot be queued is logged, the delivery goes on.
 */
@Injectable()
export class MessageNotificationsQueue implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Push.MessageDeliveredJob>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Push.MESSAGE_NOTIFICATIONS_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'message notifications queue'));
  }

  messageDelivered(sent: Messaging.MessageSent, queues: ReadonlyMap<number, readonly QueueDescriptor[]>): void {
    const messageId = Number(sent.message.id);
    const senderId = Number(sent.message.sender_id);
    // Nobody but the sender: nobody to notify.
    if (!sent.recipients.some((recipient) => recipient.id !== senderId)) return;
    const activeUserIds = recipientsWithClientOpen(
      sent.recipients.map((recipient) => recipient.id),
      queues,
    );
    this.queue
      .add(
        Push.MESSAGE_DELIVERED_JOB,
        { realmId: sent.realmId, messageId, activeUserIds },
        { jobId: Push.messageDeliveredJobId(messageId), removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 86400 }, attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
      )
      .catch((err: unknown) => this.logger.error({ err, messageId }, 'message notifications not queued'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}

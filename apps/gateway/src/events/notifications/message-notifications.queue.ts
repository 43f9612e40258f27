import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Push, type Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, bullmqConnection, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { QueueDescriptor } from '../queue-descriptor';
import { recipientsWithClientOpen } from './off-app';

/** Messages gathered into one job: at most this many, for at most FLUSH_MS. */
const MAX_BATCH = 256;
const FLUSH_MS = 25;

/**
 * Where a message is delivered, Zulip decides who is notified of it (maybe_enqueue_notifications):
 * the fan-out hands each delivered message to the push service with the recipients who have a
 * client open, and the push service applies the rules (settings, mutes, mentions) to the rest.
 * The messages of a few milliseconds go in one job (a saturated send would otherwise cost a job
 * per message). Never throws: a notification that cannot be queued is logged, the delivery goes on.
 */
@Injectable()
export class MessageNotificationsQueue implements OnModuleInit, OnApplicationShutdown {
  private queue!: Queue<Push.MessagesDeliveredJob>;
  private pending: Push.DeliveredMessage[] = [];
  private timer?: NodeJS.Timeout;

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
    const senderId = Number(sent.message.sender_id);
    // Nobody but the sender: nobody to notify.
    if (!sent.recipients.some((recipient) => recipient.id !== senderId)) return;
    this.pending.push({
      realmId: sent.realmId,
      messageId: Number(sent.message.id),
      activeUserIds: recipientsWithClientOpen(
        sent.recipients.map((recipient) => recipient.id),
        queues,
      ),
    });
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const messages = this.pending;
    this.pending = [];
    if (messages.length === 0) return Promise.resolve();
    return this.queue
      .add(Push.MESSAGES_DELIVERED_JOB, { messages }, { removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 86400 }, attempts: 5, backoff: { type: 'exponential', delay: 1000 } })
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error({ err, messageIds: messages.map((m) => m.messageId) }, 'message notifications not queued'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    await this.queue?.close().catch(() => undefined);
  }
}

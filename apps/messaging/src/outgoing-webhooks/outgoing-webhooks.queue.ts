import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { APP_CONFIG, DurableConsumer, LOGGER, bullmqConnection, withTraceData, type AppConfig } from '@teamchat/platform';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';

const CONSUMER = 'messaging-outgoing-webhooks';

/**
 * From a sent message to the calls it triggers: a durable JetStream consumer (shared by the
 * messaging replicas) of `outgoing_webhook_triggered`, which the send wrote with the message,
 * adds one BullMQ job per bot. The job id is the message's and the bot's, so an event delivered
 * twice queues one call. The send itself never waits for any of this.
 */
@Injectable()
export class OutgoingWebhooksQueue implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private queue!: Queue<Messaging.OutgoingWebhookJob>;
  private consumer?: DurableConsumer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Messaging.OUTGOING_WEBHOOKS_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'outgoing webhooks queue'));
  }

  async onApplicationBootstrap(): Promise<void> {
    const def = Messaging.OutgoingWebhookEvents.outgoingWebhookTriggered;
    this.consumer = new DurableConsumer({
      natsUrl: this.config.NATS_URL,
      name: CONSUMER,
      subject: def.subject,
      logger: this.logger,
      handle: (payload) => this.triggered(def.payload.parse(payload)),
    });
    await this.consumer.start();
  }

  /** One job per triggered bot, retried with backoff (see DeliverOutgoingWebhook for which failures retry). */
  async triggered(event: Messaging.OutgoingWebhookTriggered): Promise<void> {
    const messageId = Number(event.message.id);
    await this.queue.addBulk(
      event.bots.map((bot) => ({
        name: Messaging.OUTGOING_WEBHOOK_JOB,
        data: withTraceData({ realmId: event.realmId, botId: bot.userId, trigger: bot.trigger, message: event.message }),
        opts: {
          jobId: Messaging.outgoingWebhookJobId(messageId, bot.userId),
          attempts: this.config.OUTGOING_WEBHOOK_ATTEMPTS,
          backoff: { type: 'exponential', delay: this.config.OUTGOING_WEBHOOK_BACKOFF_MS },
          removeOnComplete: { age: 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
    await this.queue?.close().catch(() => undefined);
  }
}

import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { APP_CONFIG, EventConsumers, LOGGER, bullmqConnection, withTraceData, type AppConfig, type ConsumedEvents } from '@teamchat/platform';
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
export class OutgoingWebhooksQueue extends EventConsumers implements OnModuleInit {
  private queue!: Queue<Messaging.OutgoingWebhookJob>;

  constructor(
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {
    super();
  }

  onModuleInit(): void {
    const { connection, prefix } = bullmqConnection(this.config);
    this.queue = new Queue(Messaging.OUTGOING_WEBHOOKS_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.logger.error({ err }, 'outgoing webhooks queue'));
  }

  protected consumedEvents(): ConsumedEvents {
    const def = Messaging.OutgoingWebhookEvents.outgoingWebhookTriggered;
    return [{ name: CONSUMER, subject: def.subject, handle: (payload) => this.triggered(def.payload.parse(payload)) }];
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

  override async onApplicationShutdown(): Promise<void> {
    await super.onApplicationShutdown();
    await this.queue?.close().catch(() => undefined);
  }
}

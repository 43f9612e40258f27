import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STREAM, MessagingEvents } from '@teamchat/contracts';
import { PgService } from '@teamchat/db';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import { AckPolicy, DeliverPolicy, connect, type ConsumerMessages, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { AttachmentAccess } from './attachment-access';
import { attachmentByPath, attachmentsByPaths, linkAttachments } from './uploads.sql';

const CONSUMER = 'uploads-attachment-links';

/**
 * Records which messages link which attachments, from messaging's attachments_linked events: a
 * durable JetStream consumer shared by the uploads replicas (each event handled by one), so
 * links made while uploads was down are recorded when it is back. A sender links a file when
 * they uploaded it or may read it themselves (Zulip's claim_attachment), so a guessed path
 * shares nothing. Inserting a link twice changes nothing, so redeliveries are harmless.
 */
@Injectable()
export class AttachmentLinksConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private connection?: NatsConnection;
  private messages?: ConsumerMessages;
  private stopping = false;

  constructor(
    private readonly pg: PgService,
    private readonly access: AttachmentAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.connection = await connect({ servers: this.config.NATS_URL, name: 'uploads-links', noAsyncTraces: true });
    const manager = await this.connection.jetstreamManager();
    await manager.consumers.info(EVENT_STREAM, CONSUMER).catch(() =>
      manager.consumers
        .add(EVENT_STREAM, {
          durable_name: CONSUMER,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.New,
          filter_subject: MessagingEvents.attachmentsLinked.subject,
        })
        .catch(() => manager.consumers.info(EVENT_STREAM, CONSUMER)),
    );
    void this.consume();
  }

  private async consume(): Promise<void> {
    while (!this.stopping) {
      try {
        const consumer = await this.connection!.jetstream().consumers.get(EVENT_STREAM, CONSUMER);
        this.messages = await consumer.consume({ max_messages: 50 });
        for await (const message of this.messages) {
          try {
            await this.link(MessagingEvents.attachmentsLinked.payload.parse(message.json()));
            message.ack();
          } catch (error) {
            this.logger.error({ err: error, seq: message.seq }, 'attachment links not recorded; will be retried');
            message.nak(1000);
          }
        }
      } catch (error) {
        if (!this.stopping) this.logger.error({ err: error }, 'attachment links consumer interrupted; resuming');
      }
      if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  async link(event: { realmId: number; messageId: number; senderId: number; dateSent: number; pathIds: string[] }): Promise<void> {
    const candidates = await this.pg.run(attachmentsByPaths, event.realmId, event.pathIds);
    const allowed: number[] = [];
    for (const attachment of candidates) {
      if (attachment.ownerId === event.senderId) {
        allowed.push(attachment.id);
        continue;
      }
      const [withLinks] = await this.pg.run(attachmentByPath, attachment.pathId);
      const sender = { id: event.senderId, realmId: event.realmId };
      // The message itself links it already in the sender's eyes only after this; judge by the others.
      const others = { ...withLinks, messageIds: withLinks.messageIds.filter((id) => id !== event.messageId) };
      if (await this.access.mayRead(sender, others)) allowed.push(attachment.id);
    }
    if (allowed.length > 0) await this.pg.run(linkAttachments, allowed, event.messageId, new Date(event.dateSent));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.connection?.drain().catch(() => undefined);
  }
}

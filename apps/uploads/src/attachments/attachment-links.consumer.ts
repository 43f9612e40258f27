import { Inject, Injectable } from '@nestjs/common';
import { MessagingEvents } from '@teamchat/contracts';
import { APP_CONFIG, EventConsumers, LOGGER, type AppConfig, type ConsumedEvents } from '@teamchat/platform';
import type { Logger } from 'pino';
import { AttachmentsRepository } from '../data/attachments.repository';
import { AttachmentAccess } from './attachment-access';
import { isStorableText } from './storable-text';

const CONSUMER = 'uploads-attachment-links';

/**
 * Records which messages link which attachments, from messaging's attachments_linked events: a
 * durable JetStream consumer shared by the uploads replicas (each event handled by one), so
 * links made while uploads was down are recorded when it is back. A sender links a file when
 * they uploaded it or may read it themselves (Zulip's claim_attachment), so a guessed path
 * shares nothing. Inserting a link twice changes nothing, so redeliveries are harmless.
 */
@Injectable()
export class AttachmentLinksConsumer extends EventConsumers {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly access: AttachmentAccess,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {
    super();
  }

  protected consumedEvents(): ConsumedEvents {
    const def = MessagingEvents.attachmentsLinked;
    return [{ name: CONSUMER, subject: def.subject, handle: (payload) => this.link(def.payload.parse(payload)) }];
  }

  async link(event: { realmId: number; messageId: number; senderId: number; dateSent: number; pathIds: string[] }): Promise<void> {
    // A path Postgres could not hold (NUL, a lone surrogate) names no file; asking would fail the event on every redelivery.
    const pathIds = event.pathIds.filter(isStorableText);
    if (pathIds.length === 0) return;
    const candidates = await this.attachments.inRealmByPaths(event.realmId, pathIds);
    const allowed: number[] = [];
    for (const attachment of candidates) {
      if (attachment.ownerId === event.senderId) {
        allowed.push(attachment.id);
        continue;
      }
      const withLinks = await this.attachments.byPath(attachment.pathId);
      // Removed since the read above: the event fails and its redelivery no longer finds it.
      if (!withLinks) throw new Error(`attachment ${attachment.id} removed while being linked`);
      const sender = { id: event.senderId, realmId: event.realmId };
      // The message itself links it already in the sender's eyes only after this; judge by the others.
      const others = { ...withLinks, messageIds: withLinks.messageIds.filter((id) => id !== event.messageId) };
      if (await this.access.mayRead(sender, others)) allowed.push(attachment.id);
    }
    if (allowed.length > 0) await this.attachments.link(allowed, event.messageId, new Date(event.dateSent));
  }
}

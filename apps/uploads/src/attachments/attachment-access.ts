import { Injectable } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import type { LinkedAttachmentRow } from '../data/attachments.repository';

/**
 * Who may read an uploaded file (Zulip's validate_attachment_request): its uploader, and anyone
 * who may read a message that links it. Messaging decides the latter, since the rules
 * (recipients, subscribers, public channels, protected history) are its own.
 */
@Injectable()
export class AttachmentAccess {
  constructor(private readonly commands: CommandClient) {}

  async mayRead(user: { id: number; realmId: number }, attachment: LinkedAttachmentRow): Promise<boolean> {
    if (attachment.realmId !== user.realmId) return false;
    if (attachment.ownerId === user.id) return true;
    if (attachment.messageIds.length === 0) return false;
    const { messageIds } = await this.commands.call(Messaging.readableMessages, {
      realmId: user.realmId,
      userId: user.id,
      messageIds: attachment.messageIds.slice(0, 1000),
    });
    return messageIds.length > 0;
  }
}

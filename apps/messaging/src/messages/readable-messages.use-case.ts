import { Injectable } from '@nestjs/common';
import type { PayloadOf } from '@teamchat/contracts';
import { Messaging } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import { MessagesRepository } from '../data/messages.repository';

/**
 * Which of the given messages a user may read (Zulip's has_message_access): a recipient (a
 * user_messages row); an active subscriber of the channel, from the moment they subscribed when
 * its history is protected; any member but a guest for a public channel. Messages of another
 * organization are never readable. Asked by the uploads service, which lets whoever may read a
 * message that links a file read the file.
 */
@Injectable()
export class ReadableMessages {
  constructor(private readonly messages: MessagesRepository) {}

  async execute({ realmId, userId, messageIds }: PayloadOf<typeof Messaging.readableMessages>): Promise<{ messageIds: number[] }> {
    if (messageIds.length === 0) return { messageIds: [] };
    return { messageIds: await this.messages.readableIds(realmId, userId, messageIds, Role.GUEST) };
  }
}
